import { request } from "node:http";

/**
 * Answers the HTTP status of a GET on a fresh connection, or 0 when nothing answers within a second.
 * A fresh connection, not fetch's pool: a pooled socket to a port an earlier emulator used in this
 * process must never make a new one look dead.
 */
export function probeStatus(url: string): Promise<number> {
  return new Promise((resolve) => {
    const req = request(url, { agent: false, timeout: 1_000, headers: { connection: "close" } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(0));
    req.end();
  });
}
