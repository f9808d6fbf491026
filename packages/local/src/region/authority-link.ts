import { createServer, request, type Server } from "node:http";
import type { RegionRole } from "@eo/core";
import { boundPort, closeHttp } from "../runtime/http-front";
import type { RegionFlags } from "./region-flags";

/** Each Region's way to the authority: an endpoint its handlers use instead of DynamoDB Local's own. */
export interface AuthorityLinks {
  urls: Record<RegionRole, string>;
  /** The authority reads (GetItem) each Region's handlers made through its link since the stack started. */
  reads(role: RegionRole): number;
  /**
   * Holds every request on the links this long before it goes on: a model of the authority's latency in AWS (a
   * strongly consistent MRSC read is one round trip to the nearest Region of the set), or a slow authority.
   */
  setLatencyMs(ms: number): void;
  stop(): Promise<void>;
}

/**
 * One link per Region between its handlers and the authority (a table in DynamoDB Local's witness Region). In AWS
 * a Region that fails or is cut off cannot reach the MRSC table's quorum; locally every Region shares one DynamoDB
 * Local, so the link is where the cut is made: while the Region is down or partitioned, the link resets every
 * connection, and the handlers' reads fail as they would across a broken network.
 */
export async function startAuthorityLinks(dynamodb: string, flags: RegionFlags): Promise<AuthorityLinks> {
  const target = new URL(dynamodb);
  const servers: Server[] = [];
  const urls = {} as Record<RegionRole, string>;
  const reads: Record<RegionRole, number> = { primary: 0, standby: 0 };
  let latencyMs = 0;
  for (const role of ["primary", "standby"] as const) {
    const server = createServer(async (req, res) => {
      if (!flags.isConnected(role)) {
        req.socket.destroy();
        return;
      }
      if (String(req.headers["x-amz-target"] ?? "").endsWith(".GetItem")) reads[role] += 1;
      if (latencyMs > 0) {
        req.pause();
        await new Promise((r) => setTimeout(r, latencyMs));
        // A caller that gave up (its read's budget ran out) is not forwarded.
        if (req.socket.destroyed) return;
        req.resume();
      }
      const upstream = request(
        { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on("error", () => req.socket.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    urls[role] = `http://127.0.0.1:${boundPort(server)}`;
  }
  return {
    urls,
    reads: (role) => reads[role],
    setLatencyMs: (ms) => {
      latencyMs = Math.max(0, ms);
    },
    stop: async () => void (await Promise.all(servers.map((s) => closeHttp(s)))),
  };
}
