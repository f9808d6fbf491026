import type { IncomingMessage, ServerResponse } from "node:http";
import { chargeOperation, getCharge, listCharges } from "./charge-routes";
import type { Call, PspContext } from "./context";
import { dialectOf, sendFor } from "./dialect";
import { errorReply, RequestError, send } from "./http-io";
import { newId } from "./ids";
import { handleKeyed } from "./keyed-request";
import { SENT_AT_HEADER, sentAtOf } from "./rate-limiter";
import { listRefunds, refundOperation } from "./refund-routes";
import { SleepCancelled } from "./sleeper";
import { settleDue } from "./stripe/due-changes";
import { intentOfCharge } from "./stripe/payment-intent-read";
import { stripeRoute } from "./stripe/stripe-routes";

/** The account a request is made for is its secret key, as with Stripe; no key means a shared default. */
export const DEFAULT_ACCOUNT = "acct_default";

function accountOf(req: IncomingMessage): string {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? "");
  return match?.[1] ?? DEFAULT_ACCOUNT;
}

const TOO_MANY = "Too many requests hit the API too quickly.";

// Stripe's 429 is an invalid_request_error with code rate_limit; the generic dialect keeps its own type.
function rateLimited(call: Call): void {
  const reply =
    call.dialect === "stripe"
      ? errorReply(429, "invalid_request_error", TOO_MANY, { code: "rate_limit" })
      : errorReply(429, "rate_limit_error", TOO_MANY);
  sendFor(call, { ...reply, headers: { "Retry-After": "1" } });
}

// Answered at the edge, before the idempotency layer: the request never ran, so nothing is saved under its key.
function outageRefused(call: Call): void {
  sendFor(call, errorReply(503, "api_error", "The PSP is unavailable (injected outage)."));
}

// The injected latency is real time on the cancellable sleeper, so stop() never waits for it.
async function waitLatency(ctx: PspContext): Promise<void> {
  const ms = ctx.conditions.latencyMs();
  if (ms !== undefined && ms > 0) await ctx.sleeper.sleep(ms);
}

async function dispatch(ctx: PspContext, call: Call): Promise<void> {
  if (call.dialect === "stripe") return stripeRoute(ctx, call);
  const { method } = call.req;
  const path = call.url.pathname;
  if (method === "POST" && path === "/v1/charges") return handleKeyed(ctx, call, chargeOperation(ctx, call));
  if (method === "POST" && path === "/v1/refunds") return handleKeyed(ctx, call, refundOperation(ctx, call));
  if (method === "GET" && path === "/v1/charges") return listCharges(ctx, call);
  if (method === "GET" && path === "/v1/refunds") return listRefunds(ctx, call);
  const one = /^\/v1\/charges\/([^/]+)$/.exec(path);
  if (method === "GET" && one?.[1]) return getCharge(ctx, call, decodeURIComponent(one[1]));
  send(call.res, errorReply(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`));
}

function answerFailure(call: Call, err: unknown): void {
  if (err instanceof RequestError) {
    sendFor(call, errorReply(err.status, err.type, err.message, err.extra));
  } else if (err instanceof SleepCancelled) {
    // A delayed request cut short by stop() did nothing, so the client gets no answer that says otherwise.
    call.res.destroy();
  } else {
    sendFor(call, errorReply(500, "api_error", err instanceof Error ? err.message : String(err)));
  }
}

// Every answer names its request, as Stripe's do; a Stripe event carries the id of the request behind it.
function callOf(ctx: PspContext, req: IncomingMessage, res: ServerResponse): Call {
  ctx.requestCount += 1;
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  ctx.requestLog.push(`${req.method} ${url.pathname}`);
  const requestId = newId("req");
  res.setHeader("Request-Id", requestId);
  const account = accountOf(req);
  const isIntentCharge = (id: string) => intentOfCharge(ctx, account, id) !== undefined;
  return { req, res, account, url, dialect: dialectOf(req, url, isIntentCharge), requestId };
}

/** Handles one HTTP request: counts it, applies an outage and the rate limits, waits its latency, then routes it. */
export async function handleRequest(
  ctx: PspContext,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  // Whatever fell due by the PSP's clock has happened before this request looks, as at a real PSP.
  settleDue(ctx);
  const call = callOf(ctx, req, res);
  const origin = ctx.stats.arrived(req, res, call.url.pathname);
  const outage = ctx.conditions.outage(req.method === "POST");
  if (outage === "refuse") {
    ctx.stats.outageRefused();
    return outageRefused(call);
  }
  // The request never ran, so a 429 is answered before any key is looked at and is never saved.
  // `psp_rate_limit` is one 429 on demand (a fault schedule's), answered like the limiter's own.
  const injected = req.method === "POST" && ctx.opts.takeFault("psp_rate_limit") !== undefined;
  const endpoint = `${req.method} ${call.url.pathname}`;
  if (injected || !ctx.limiter.admit(call.account, endpoint, sentAtOf(req.headers[SENT_AT_HEADER]))) {
    ctx.stats.rateLimited(origin);
    return rateLimited(call);
  }
  try {
    await waitLatency(ctx);
    await dispatch(ctx, { ...call, dropReply: outage === "drop" });
  } catch (err) {
    answerFailure(call, err);
  }
}
