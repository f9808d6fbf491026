import { createRequire } from "node:module";
import type { HttpHandlerOptions, HttpRequest, HttpResponse, RequestHandler } from "@smithy/types";
import { installSimSigner } from "./sim-signer";

/** A model's transport, as the SDK calls a requestHandler. */
export type ModelHandler = RequestHandler<HttpRequest, HttpResponse, HttpHandlerOptions>;

/** Picks the model that answers a request to one simulated host (by the Region it was signed for, say). */
export type Route = (request: HttpRequest) => ModelHandler;

/** The simulated hosts, by name or `name:port` (`dynamodb.sim`, `127.0.0.1:41002`), each answered by its model. */
export type Routes = Record<string, Route>;

interface Patchable {
  prototype: {
    handle: (this: unknown, request: HttpRequest, options?: HttpHandlerOptions) => Promise<unknown>;
  };
}

const require = createRequire(import.meta.url);
let nodeHttpHandler: Patchable | undefined;

/** The Region a SigV4-signed request names in its credential scope (`Credential=AKID/date/REGION/service/…`). */
export function signedRegion(request: HttpRequest): string {
  const auth = String(request.headers.authorization ?? request.headers.Authorization ?? "");
  const scope = /Credential=[^/]+\/\d{8}\/([^/]+)\//.exec(auth);
  if (!scope?.[1])
    throw new Error(`the simulation cannot tell the Region of a request to ${request.hostname}`);
  return scope[1];
}

/**
 * Sends every SDK request whose host is a simulated one to its model, in this process, through the SDK's default
 * transport: production code builds its clients as it does in Lambda (from AWS_ENDPOINT_URL_*), and the SDK's own
 * serializers and retries run unchanged; its signer writes the headers without SigV4's hashing (sim-signer.ts), as
 * the models check no signature. Requests to any other host go out as before. Returns the undo.
 */
export function installSimTransport(routes: Routes): () => void {
  // required once: each stack installs, and a require goes through the module hooks
  nodeHttpHandler ??= (require("@smithy/node-http-handler") as { NodeHttpHandler: Patchable })
    .NodeHttpHandler;
  const NodeHttpHandler = nodeHttpHandler;
  const original = NodeHttpHandler.prototype.handle;
  const routeOf = (request: HttpRequest): Route | undefined =>
    routes[`${request.hostname}:${request.port ?? ""}`] ?? routes[request.hostname];
  NodeHttpHandler.prototype.handle = function simHandle(request, options) {
    const route = routeOf(request);
    if (!route) return original.call(this, request, options);
    return route(request).handle(request, options);
  };
  const undoSigner = installSimSigner((request) => routeOf(request) !== undefined);
  return () => {
    undoSigner();
    NodeHttpHandler.prototype.handle = original;
  };
}
