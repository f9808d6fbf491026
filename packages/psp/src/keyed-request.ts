import type { Call, PspContext } from "./context";
import { loseReply, sendFor } from "./dialect";
import { eventOf, type Occurrence } from "./events";
import { errorReply, type JsonReply, parseParams, RequestError, readBody } from "./http-io";
import type { SavedResult } from "./idempotency-store";

/** What an operation produced: the reply saved under the key, and what happened, sent once as events. */
export interface Outcome {
  reply: JsonReply;
  events: Occurrence[];
}

/** A POST endpoint run at most once per idempotency key. */
export interface KeyedOperation<P> {
  parse(raw: Record<string, unknown>): P;
  execute(params: P, key: string): Outcome;
}

const MAX_KEY_LENGTH = 255;

function idempotencyKeyOf(call: Call): string {
  const key = call.req.headers["idempotency-key"];
  if (typeof key !== "string" || key === "") {
    throw new RequestError(400, "invalid_request_error", "an Idempotency-Key header is required");
  }
  if (key.length > MAX_KEY_LENGTH) {
    throw new RequestError(400, "invalid_request_error", `Idempotency-Key is longer than ${MAX_KEY_LENGTH}`);
  }
  return key;
}

function replayOf(saved: SavedResult, endpoint: string, fingerprint: string): JsonReply {
  if (saved.endpoint !== endpoint || saved.fingerprint !== fingerprint) {
    const message =
      "Keys for idempotent requests can only be used with the same parameters they were first used with.";
    return errorReply(400, "idempotency_error", message);
  }
  return { status: saved.status, body: saved.body, headers: { "Idempotent-Replayed": "true" } };
}

function failStatus(value: number): number {
  return Number.isInteger(value) && value >= 400 && value <= 599 ? value : 500;
}

/** Runs the operation unless a `psp_fail` fault answers for it; a fault is consumed only by a run. */
function runWithFaults<P>(ctx: PspContext, op: KeyedOperation<P>, params: P, key: string) {
  const failed = ctx.opts.takeFault("psp_fail");
  if (failed !== undefined) {
    const reply = errorReply(failStatus(failed), "api_error", "the PSP failed (injected fault)");
    return { reply, events: [], loseReply: false };
  }
  const loseReply = ctx.opts.takeFault("psp_lose_reply") !== undefined || ctx.conditions.losesReplyByRate();
  return { ...op.execute(params, key), loseReply };
}

// Stripe answers a request whose key is still being worked on with 409, which is safe to retry.
function keyInUse(key: string): JsonReply {
  const message = `There is currently another in-progress request using this Idempotent Key: '${key}'.`;
  return errorReply(409, "idempotency_error", message, { code: "idempotency_key_in_use" });
}

/**
 * Handles an idempotent POST the way Stripe does: validation errors and 429s are not saved, while
 * anything that started executing (success, decline, 404, injected 500) is saved and replayed. In Stripe's
 * dialect the key is held from the start, so a concurrent request with it is refused with 409.
 */
export async function handleKeyed<P>(ctx: PspContext, call: Call, op: KeyedOperation<P>): Promise<void> {
  const key = idempotencyKeyOf(call);
  const params = op.parse(parseParams(await readBody(call.req), call.req.headers["content-type"]));
  if (call.dialect !== "stripe") return runKeyed(ctx, call, op, key, params);
  if (!ctx.store.claim(call.account, key)) return sendFor(call, keyInUse(key));
  try {
    await runKeyed(ctx, call, op, key, params);
  } finally {
    ctx.store.release(call.account, key);
  }
}

async function runKeyed<P>(ctx: PspContext, call: Call, op: KeyedOperation<P>, key: string, params: P) {
  const delayMs = ctx.opts.takeFault("psp_delay_ms");
  // The wait comes before the key lookup so that a generic client retrying during it gets one charge, not a
  // 409 (in Stripe's dialect the key is already held, and the retry gets Stripe's 409).
  if (delayMs !== undefined && delayMs > 0) await ctx.sleeper.sleep(delayMs);
  const endpoint = `${call.req.method} ${call.url.pathname}`;
  const fingerprint = JSON.stringify(params);
  const saved = ctx.store.lookup(call.account, key);
  if (saved) return answer(ctx, call, replayOf(saved, endpoint, fingerprint), call.dropReply === true);
  const outcome = runWithFaults(ctx, op, params, key);
  ctx.store.save(call.account, key, {
    endpoint,
    fingerprint,
    status: outcome.reply.status,
    body: outcome.reply.body,
  });
  const origin = { requestId: call.requestId, idempotencyKey: key };
  for (const occ of outcome.events) ctx.webhooks.send(eventOf(ctx.opts.dialect, occ, origin));
  answer(ctx, call, outcome.reply, outcome.loseReply || call.dropReply === true);
}

// A lost reply means the work is done (and saved, or replayed) but the client never hears of it.
function answer(ctx: PspContext, call: Call, reply: JsonReply, drop: boolean): void {
  if (!drop) {
    sendFor(call, reply);
    return;
  }
  ctx.stats.replyDropped();
  loseReply(call, reply);
}
