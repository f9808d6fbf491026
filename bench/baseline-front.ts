import type { Server } from "node:http";
import { startHttpFront } from "../packages/local/src/runtime/http-front";

/** Serves a baseline's POST /payments handler on a loopback port of its own, as the local API Gateway would. */
export async function front(handler: unknown): Promise<{ url: string; server: Server }> {
  const server = await startHttpFront(
    0,
    [
      {
        method: "POST",
        path: "/payments",
        functionName: "bench",
        auth: true,
        load: async () => handler as never,
      },
    ],
    async () => undefined,
  );
  const addr = server.address();
  return { url: `http://127.0.0.1:${typeof addr === "object" && addr ? addr.port : 0}`, server };
}
