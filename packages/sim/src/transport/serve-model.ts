import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { HttpRequest, QueryParameterBag } from "@smithy/types";
import type { ModelHandler } from "./sim-transport";

/** An extra route a stand-in serves beside its API (aws-ses-v2-local's `GET /store`, say); undefined means "not mine". */
export type ExtraRoute = (method: string, url: URL) => Promise<{ status: number; body: unknown } | undefined>;

/**
 * Serves a model's transport as an HTTP server, so that code which reaches an emulator by its endpoint (the local
 * stack, the tests' helpers, the fault checker) reaches the model unchanged; with the in-process network installed
 * it listens on a virtual port. `route` picks the model for the Region a request was signed for.
 */
export function serveModel(route: (request: HttpRequest) => ModelHandler, extra?: ExtraRoute): Server {
  return createServer((req, res) => {
    void answer(req, res, route, extra).catch((err: Error) => {
      res.statusCode = 500;
      res.end(JSON.stringify({ __type: "InternalFailure", message: err.message }));
    });
  });
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  route: (request: HttpRequest) => ModelHandler,
  extra?: ExtraRoute,
): Promise<void> {
  const body = await readAll(req);
  const url = new URL(req.url ?? "/", `http://${req.headers.host ?? "127.0.0.1"}`);
  const own = await extra?.(req.method ?? "GET", url);
  if (own) {
    res.writeHead(own.status, { "content-type": "application/json" });
    res.end(JSON.stringify(own.body));
    return;
  }
  const request = toSmithyRequest(req, url, body);
  const { response } = await route(request).handle(request);
  res.writeHead(response.statusCode, response.headers);
  const out = response.body as Uint8Array | string | undefined;
  res.end(out === undefined ? undefined : typeof out === "string" ? out : Buffer.from(out));
}

function toSmithyRequest(req: IncomingMessage, url: URL, body: Buffer): HttpRequest {
  const query: QueryParameterBag = {};
  for (const [k, v] of url.searchParams) {
    const had = query[k];
    query[k] = had === undefined || had === null ? v : Array.isArray(had) ? [...had, v] : [had, v];
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = String(v);
  return {
    protocol: "http:",
    hostname: url.hostname,
    port: Number(url.port) || undefined,
    method: req.method ?? "GET",
    path: url.pathname,
    query,
    headers,
    body,
  } as HttpRequest;
}

function readAll(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}
