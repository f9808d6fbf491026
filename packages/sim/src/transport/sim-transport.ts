import { createRequire } from "node:module";
import type { HttpHandlerOptions, HttpRequest, HttpResponse, RequestHandler } from "@smithy/types";

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
 * serializers, signers and retries run unchanged. Requests to any other host go out as before. Returns the undo.
 */
export function installSimTransport(routes: Routes): () => void {
  const { NodeHttpHandler } = require("@smithy/node-http-handler") as { NodeHttpHandler: Patchable };
  const original = NodeHttpHandler.prototype.handle;
  NodeHttpHandler.prototype.handle = function simHandle(request, options) {
    const route = routes[`${request.hostname}:${request.port ?? ""}`] ?? routes[request.hostname];
    if (!route) return original.call(this, request, options);
    return route(request).handle(request, options);
  };
  return () => {
    NodeHttpHandler.prototype.handle = original;
  };
}
