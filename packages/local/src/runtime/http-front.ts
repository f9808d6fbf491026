import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { clock } from "@eo/core";
import type { APIGatewayProxyResultV2, Context } from "aws-lambda";
import type { ApiAnswer } from "../console/answer-tally";
import { problemKind } from "../console/answer-tally";
import { toApiGatewayEvent } from "./api-gateway-event";
import { asInvocation } from "./current-invocation";
import { verifyBearer } from "./jwt";
import { lambdaContext } from "./lambda-context";

// biome-ignore lint/suspicious/noExplicitAny: handlers take their own event types.
export type HttpHandler = (event: any, context: Context) => Promise<APIGatewayProxyResultV2>;

/** One API route, like an API Gateway route with a Lambda integration. */
export interface Route {
  method: string;
  path: string;
  functionName: string;
  auth: boolean;
  load: () => Promise<HttpHandler>;
}

/** Answers the `/_local` inspection routes; undefined means "not mine". */
export type LocalRoutes = (req: IncomingMessage, url: URL, body: Buffer) => Promise<LocalAnswer | undefined>;
export interface LocalAnswer {
  status: number;
  body?: unknown;
  /** A body that is not JSON (the API reference page, the YAML document), sent as is with this type. */
  raw?: { contentType: string; text: string };
}

const MAX_BODY = 1024 * 1024; // API Gateway's own limit is far larger; the handlers enforce 16 KiB.
const API_TIMEOUT_MS = 29_000;

/**
 * Starts the HTTP front that does locally what API Gateway and its JWT authorizer do in AWS. `refuse`, when it
 * answers, answers every API request instead of its route (a local Region that is down); `/_local` is still served.
 * `observe` hears every API answer (not `/_local`), for the console's counts.
 */
export async function startHttpFront(
  listening: Server | number,
  routes: Route[],
  local: LocalRoutes,
  refuse: () => LocalAnswer | undefined = () => undefined,
  observe: (answer: ApiAnswer) => void = () => undefined,
): Promise<Server> {
  const compiled = routes.map((r) => ({ ...r, re: pathPattern(r.path) }));
  const server = typeof listening === "number" ? await listenHttp(listening) : listening;
  server.removeAllListeners("request");
  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const timeEpoch = clock.now();
    serve(req, res, timeEpoch, compiled, local, refuse, observe).catch((err) => {
      if (!res.headersSent)
        send(res, 500, problem(500, "Internal Server Error", String(err?.message ?? err)));
      else res.end();
    });
  });
  return server;
}

/**
 * Binds an HTTP server on 127.0.0.1 with no handler yet (0 = a port the kernel picks), so the stack holds its API
 * ports from the first moment: a port picked, released and bound later can be taken by a parallel test's process.
 */
export async function listenHttp(port: number): Promise<Server> {
  // Until the Region's routes are attached, a request (an early health poll) hears 503 rather than hanging.
  const server = createServer((_req, res) => send(res, 503, problem(503, "Service Unavailable", "starting")));
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return server;
}

/** Closes a server and its open connections; a server that is not listening is already closed. */
export function closeHttp(server: Server): Promise<void> {
  if (!server.listening) return Promise.resolve();
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The port a listening server is bound to. */
export function boundPort(server: Server): number {
  return (server.address() as { port: number }).port;
}

async function serve(
  req: IncomingMessage,
  res: ServerResponse,
  timeEpoch: number,
  routes: Array<Route & { re: RegExp }>,
  local: LocalRoutes,
  refuse: () => LocalAnswer | undefined,
  observe: (answer: ApiAnswer) => void,
): Promise<void> {
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const body = await readBody(req);
  if (body === undefined) return send(res, 413, problem(413, "Payload Too Large", "request body over 1 MiB"));
  if (url.pathname.startsWith("/_local/")) {
    const answer = await local(req, url, body);
    if (answer?.raw) {
      res.writeHead(answer.status, { "content-type": answer.raw.contentType });
      return void res.end(answer.raw.text);
    }
    if (answer) return send(res, answer.status, answer.body);
    return send(res, 404, problem(404, "Not Found", `no local route ${req.method} ${url.pathname}`));
  }
  const refused = refuse();
  const route = `${req.method} ${url.pathname}`;
  if (refused) {
    observe({ route, status: refused.status, problem: problemKind(refused.body) });
    return send(res, refused.status, refused.body);
  }
  const match = matchRoute(routes, req.method ?? "GET", url.pathname);
  if (!match) return send(res, 404, { message: "Not Found" });
  const claims = match.route.auth ? await verifyBearer(req.headers.authorization) : undefined;
  if (match.route.auth && !claims) return send(res, 401, { message: "Unauthorized" });
  const routeKey = `${match.route.method} ${match.route.path}`;
  const event = toApiGatewayEvent({
    req,
    url,
    body,
    routeKey,
    pathParameters: match.params,
    claims,
    timeEpoch,
  });
  const handler = await match.route.load();
  const functionName = match.route.functionName;
  const result = await asInvocation({ functionName, source: "api" }, () =>
    handler(event, lambdaContext(functionName, API_TIMEOUT_MS)),
  );
  observe(answerOf(routeKey, result));
  render(res, result);
}

function answerOf(route: string, result: APIGatewayProxyResultV2): ApiAnswer {
  if (typeof result !== "object" || result === null || !("statusCode" in result))
    return { route, status: 200 };
  const status = result.statusCode ?? 200;
  return {
    route,
    status,
    problem: status >= 400 && !result.isBase64Encoded ? problemKind(result.body) : undefined,
  };
}

function matchRoute(routes: Array<Route & { re: RegExp }>, method: string, path: string) {
  for (const route of routes) {
    if (route.method !== method) continue;
    const m = route.re.exec(path);
    if (m) return { route, params: { ...m.groups } as Record<string, string> };
  }
  return undefined;
}

function pathPattern(path: string): RegExp {
  const src = path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{(\w+)\}/g, "(?<$1>[^/]+)");
  return new RegExp(`^${src}$`);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

// API Gateway's payload-v2.0 rules: a bare value is a 200 JSON body; a structured one is used as is.
function render(res: ServerResponse, result: APIGatewayProxyResultV2): void {
  if (typeof result !== "object" || result === null || !("statusCode" in result)) {
    send(res, 200, result);
    return;
  }
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(result.headers ?? {})) headers[k] = String(v);
  const raw = result.body ?? "";
  const payload = result.isBase64Encoded ? Buffer.from(raw, "base64") : Buffer.from(raw, "utf8");
  if (result.cookies?.length) res.setHeader("set-cookie", result.cookies);
  res.writeHead(result.statusCode ?? 200, { "content-type": "application/json", ...headers });
  res.end(payload);
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const isProblem = typeof body === "object" && body !== null && "title" in body && "status" in body;
  const type = isProblem ? "application/problem+json" : "application/json";
  res.writeHead(status, { "content-type": type });
  res.end(body === undefined ? "" : JSON.stringify(body));
}

/** An RFC 9457 problem body. */
export function problem(status: number, title: string, detail: string) {
  return { type: "about:blank", title, status, detail };
}
