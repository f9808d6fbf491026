import { createServer } from "node:net";

/** Asks the kernel for a free loopback port; 0 in a port setting means "pick one". */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

/** Resolves a configured port: a positive number is used as is, 0 or absent picks a free one. */
export async function resolvePort(configured: number | undefined): Promise<number> {
  return configured && configured > 0 ? configured : freePort();
}
