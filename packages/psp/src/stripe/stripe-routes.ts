import type { Call, PspContext } from "../context";
import { sendFor } from "../dialect";
import { errorReply } from "../http-io";
import { handleKeyed } from "../keyed-request";
import { createIntentOperation } from "./payment-intent-create";
import { listIntents, retrieveIntent, retrieveStripeCharge } from "./payment-intent-read";
import { searchIntents } from "./payment-intent-search";
import { listStripeRefunds, retrieveStripeRefund, stripeRefundOperation } from "./refund-create";

/** Routes a request in Stripe's dialect; the edge (outage, limits, latency) has already been passed. */
export async function stripeRoute(ctx: PspContext, call: Call): Promise<void> {
  const { method } = call.req;
  const path = call.url.pathname;
  if (method === "POST" && path === "/v1/payment_intents") {
    return handleKeyed(ctx, call, createIntentOperation(ctx, call));
  }
  if (method === "POST" && path === "/v1/refunds")
    return handleKeyed(ctx, call, stripeRefundOperation(ctx, call));
  if (method === "GET" && path === "/v1/payment_intents") return listIntents(ctx, call);
  if (method === "GET" && path === "/v1/payment_intents/search") return searchIntents(ctx, call);
  if (method === "GET" && path === "/v1/refunds") return listStripeRefunds(ctx, call);
  const one = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
  if (method === "GET" && one?.[1]) return retrieveIntent(ctx, call, decodeURIComponent(one[1]));
  const refund = /^\/v1\/refunds\/([^/]+)$/.exec(path);
  if (method === "GET" && refund?.[1]) return retrieveStripeRefund(ctx, call, decodeURIComponent(refund[1]));
  const charge = /^\/v1\/charges\/([^/]+)$/.exec(path);
  if (method === "GET" && charge?.[1]) return retrieveStripeCharge(ctx, call, decodeURIComponent(charge[1]));
  const message = `Unrecognized request URL (${method}: ${path}).`;
  sendFor(call, errorReply(404, "invalid_request_error", message));
}
