import http from "node:http";
import net from "node:net";
import { type Duplex, duplexPair } from "node:stream";

/** The first port handed to a server that asked for any (port 0); real ports are never bound in the simulation. */
const FIRST_VIRTUAL_PORT = 41_000;

interface Registry {
  servers: Map<number, net.Server>;
  /** Each port's open connections, both ends, so that closing its server ends them as a real close would. */
  connections: Map<number, Set<Duplex>>;
  next: number;
}

const registry: Registry = { servers: new Map(), connections: new Map(), next: FIRST_VIRTUAL_PORT };
const virtualPort = new WeakMap<net.Server, number>();

type Listen = (this: net.Server, ...args: unknown[]) => net.Server;
type CreateConnection = (
  this: http.Agent,
  options: { host?: string; port?: number | string },
  cb?: unknown,
) => Duplex;

/** A connection to an in-process server: the server hears a Duplex as Node's HTTP server allows (its 'connection'). */
export function connectInProcess(port: number): Duplex {
  const server = registry.servers.get(port);
  if (!server)
    throw Object.assign(new Error(`connect ECONNREFUSED 127.0.0.1:${port}`), { code: "ECONNREFUSED" });
  const [client, inServer] = duplexPair();
  // An HTTP server reads a few socket fields; a Duplex has none of them.
  Object.assign(inServer, {
    remoteAddress: "127.0.0.1",
    remotePort: 0,
    setTimeout: () => inServer,
    setNoDelay: () => inServer,
    setKeepAlive: () => inServer,
  });
  Object.assign(client, {
    setTimeout: () => client,
    setNoDelay: () => client,
    setKeepAlive: () => client,
    ref: () => client,
    unref: () => client,
  });
  const open = registry.connections.get(port) ?? new Set<Duplex>();
  registry.connections.set(port, open);
  open.add(client).add(inServer);
  client.once("close", () => open.delete(client));
  inServer.once("close", () => open.delete(inServer));
  server.emit("connection", inServer);
  return client;
}

/** Whether a loopback port is one of this process's in-process servers. */
export function isInProcess(host: string | undefined, port: number | string | undefined): boolean {
  const local = host === undefined || host === "127.0.0.1" || host === "localhost";
  return local && registry.servers.has(Number(port));
}

/**
 * Turns loopback networking into calls within this process: a server that listens on 127.0.0.1 gets a virtual port
 * and no socket, and HTTP clients (Node's agents, and `fetch`) that connect to such a port reach it through an
 * in-memory stream. Nothing waits on the kernel, so the world's scheduler decides every interleaving. Returns the undo.
 */
export function installInProcessNet(): () => void {
  // Every install hands out the same ports in the same order: a run's URLs (and the clients a module built from them
  // in an earlier run of this process) are the same whatever ran before it.
  registry.next = FIRST_VIRTUAL_PORT;
  const listen = net.Server.prototype.listen as unknown as Listen;
  const address = net.Server.prototype.address;
  const close = net.Server.prototype.close;
  const createConnection = (http.Agent.prototype as unknown as { createConnection: CreateConnection })
    .createConnection;
  const fetch = globalThis.fetch;
  const writeHead = http.ServerResponse.prototype.writeHead;
  // Node stamps a response's Date from a cache it refreshes on a real timer: under virtual time that header would
  // lag by however much virtual time one real second holds, and the failover reads the authority's clock from it.
  http.ServerResponse.prototype.writeHead = function simWriteHead(
    this: http.ServerResponse,
    ...args: unknown[]
  ) {
    if (this.sendDate && !this.hasHeader("date")) this.setHeader("date", new Date().toUTCString());
    return (writeHead as (...a: unknown[]) => http.ServerResponse).apply(this, args);
  } as typeof writeHead;
  net.Server.prototype.listen = function simListen(this: net.Server, ...args: unknown[]) {
    return listenInProcess(this, args);
  } as unknown as typeof net.Server.prototype.listen;
  net.Server.prototype.address = function simAddress(this: net.Server) {
    const port = virtualPort.get(this);
    return port === undefined ? address.call(this) : { address: "127.0.0.1", family: "IPv4", port };
  };
  net.Server.prototype.close = function simClose(this: net.Server, cb?: (err?: Error) => void) {
    const port = virtualPort.get(this);
    if (port === undefined) return close.call(this, cb);
    registry.servers.delete(port);
    virtualPort.delete(this);
    // A client's pooled keep-alive connection to a closed server must die with it (as a reset socket does), or a
    // later server on the same port would never hear what that client writes into it.
    for (const end of registry.connections.get(port) ?? []) end.destroy();
    registry.connections.delete(port);
    process.nextTick(() => {
      this.emit("close");
      cb?.();
    });
    return this;
  };
  (http.Agent.prototype as unknown as { createConnection: CreateConnection }).createConnection =
    function simConnect(this: http.Agent, options, cb) {
      if (isInProcess(options.host, options.port)) return connectInProcess(Number(options.port));
      return createConnection.call(this, options, cb);
    };
  globalThis.fetch = inProcessFetch(fetch);
  return () => {
    net.Server.prototype.listen = listen as unknown as typeof net.Server.prototype.listen;
    net.Server.prototype.address = address;
    net.Server.prototype.close = close;
    (http.Agent.prototype as unknown as { createConnection: CreateConnection }).createConnection =
      createConnection;
    globalThis.fetch = fetch;
    http.ServerResponse.prototype.writeHead = writeHead;
  };
}

function listenInProcess(server: net.Server, args: unknown[]): net.Server {
  const [port, host] = args as [unknown, unknown];
  const cb = args.find((a) => typeof a === "function") as (() => void) | undefined;
  if (typeof port !== "number" || (host !== undefined && typeof host === "string" && host !== "127.0.0.1"))
    throw new Error(
      `the simulation serves only 127.0.0.1:<port> (asked: ${String(port)} on ${String(host)})`,
    );
  const chosen = port === 0 ? registry.next++ : port;
  if (registry.servers.has(chosen))
    throw Object.assign(new Error(`listen EADDRINUSE: 127.0.0.1:${chosen}`), { code: "EADDRINUSE" });
  registry.servers.set(chosen, server);
  virtualPort.set(server, chosen);
  Object.defineProperty(server, "listening", { configurable: true, get: () => virtualPort.has(server) });
  process.nextTick(() => {
    server.emit("listening");
    cb?.();
  });
  return server;
}

/** `fetch` for in-process ports goes through Node's HTTP client on an in-memory stream; any other URL as before. */
function inProcessFetch(real: typeof fetch): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const url = new URL(request.url);
    if (url.protocol !== "http:" || !isInProcess(url.hostname, url.port)) return real(input, init);
    const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
    return new Promise<Response>((resolve, reject) => {
      const req = http.request(
        {
          method: request.method,
          path: `${url.pathname}${url.search}`,
          headers: { ...Object.fromEntries(request.headers), host: url.host },
          createConnection: () => connectInProcess(Number(url.port)) as unknown as net.Socket,
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => {
            // A fetch's timeout outlives its answer (AbortSignal.timeout): once answered, it aborts nothing.
            request.signal.removeEventListener("abort", abort);
            resolve(toResponse(res, Buffer.concat(chunks)));
          });
          res.on("error", reject);
        },
      );
      const abort = () => req.destroy(request.signal.reason);
      request.signal.addEventListener("abort", abort, { once: true });
      req.on("error", reject);
      req.end(body);
    });
  };
}

function toResponse(res: http.IncomingMessage, body: Buffer): Response {
  const headers = new Headers();
  for (const [k, v] of Object.entries(res.headers)) {
    if (Array.isArray(v)) for (const one of v) headers.append(k, one);
    else if (v !== undefined) headers.set(k, v);
  }
  const status = res.statusCode ?? 500;
  const empty = status === 204 || status === 304;
  return new Response(empty ? null : body, { status, statusText: res.statusMessage ?? "", headers });
}
