import type { IncomingMessage } from "node:http";
import type { Call } from "./context";
import type { Dialect } from "./dialect-name";
import { type JsonReply, send } from "./http-io";

/**
 * Which dialect a request speaks: PaymentIntents and a refund by id are Stripe's alone, a charge by id is Stripe's
 * when it is a PaymentIntent's, and `/v1/refunds` is Stripe's when its body is form-encoded or its query names a
 * `payment_intent` (the generic adapter posts JSON and lists by `charge`).
 */
export function dialectOf(req: IncomingMessage, url: URL, isIntentCharge: (id: string) => boolean): Dialect {
  const path = url.pathname;
  if (path === "/v1/payment_intents" || path.startsWith("/v1/payment_intents/")) return "stripe";
  // The generic dialect reads no refund by id; a charge by id is Stripe's when it is a PaymentIntent's.
  if (path.startsWith("/v1/refunds/")) return "stripe";
  const charge = /^\/v1\/charges\/([^/]+)$/.exec(path)?.[1];
  if (req.method === "GET" && charge !== undefined && isIntentCharge(decodeURIComponent(charge)))
    return "stripe";
  if (path !== "/v1/refunds") return "generic";
  if (req.method === "GET") return url.searchParams.has("payment_intent") ? "stripe" : "generic";
  const type = req.headers["content-type"]?.toLowerCase() ?? "";
  return type.includes("application/x-www-form-urlencoded") ? "stripe" : "generic";
}

/**
 * Adds `Stripe-Should-Retry` to an error as Stripe does: true when a retry can do better (429, a key in use, a
 * fresh 5xx), false when it cannot (a 4xx, or any saved answer replayed).
 */
export function withStripeHeaders(reply: JsonReply): JsonReply {
  if (reply.status < 400) return reply;
  const replayed = reply.headers?.["Idempotent-Replayed"] === "true";
  const retry = reply.status === 429 || reply.status === 409 || (reply.status >= 500 && !replayed);
  return { ...reply, headers: { ...reply.headers, "Stripe-Should-Retry": String(retry) } };
}

/** Writes a reply in the call's dialect. */
export function sendFor(call: Call, reply: JsonReply): void {
  send(call.res, call.dialect === "stripe" ? withStripeHeaders(reply) : reply);
}

/**
 * Loses a reply after its work is done. The generic dialect resets the connection before any byte. Stripe's SDK
 * retries such a reset once on its own, even with `maxNetworkRetries: 0`, and would then get the replay; so a
 * Stripe reply is cut after its head and half its body instead, which the SDK reports as a connection error.
 */
export function loseReply(call: Call, reply: JsonReply): void {
  if (call.dialect !== "stripe" || call.res.destroyed || call.res.writableEnded) {
    call.req.socket.destroy();
    return;
  }
  const full = withStripeHeaders(reply);
  const half = full.body.slice(0, Math.floor(full.body.length / 2));
  call.res.writeHead(full.status, {
    "Content-Type": "application/json",
    "Content-Length": Buffer.byteLength(full.body),
    ...full.headers,
  });
  call.res.write(half, () => call.req.socket.destroy());
}
