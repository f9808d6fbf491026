import type { Call, PspContext } from "./context";
import type { PspEvent } from "./events";
import { errorReply, type JsonReply, parseParams, RequestError, readBody, send } from "./http-io";
import type { SavedResult } from "./idempotency-store";

/** What an operation produced: the reply saved under the key, and the events sent once. */
export interface Outcome {
  reply: JsonReply;
  events: PspEvent[];
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

/**
 * Handles an idempotent POST the way Stripe does: validation errors and 429s are not saved, while
 * anything that started executing (success, decline, 404, injected 500) is saved and replayed.
 */
export async function handleKeyed<P>(ctx: PspContext, call: Call, op: KeyedOperation<P>): Promise<void> {
  const key = idempotencyKeyOf(call);
  const params = op.parse(parseParams(await readBody(call.req), call.req.headers["content-type"]));
  const delayMs = ctx.opts.takeFault("psp_delay_ms");
  // The wait comes before the key lookup so that a client retrying during it gets one charge, not a 409.
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
  for (const event of outcome.events) ctx.webhooks.send(event);
  answer(ctx, call, outcome.reply, outcome.loseReply || call.dropReply === true);
}

// A lost reply means the work is done (and saved, or replayed) but the client never hears of it.
function answer(ctx: PspContext, call: Call, reply: JsonReply, drop: boolean): void {
  if (!drop) {
    send(call.res, reply);
    return;
  }
  ctx.stats.replyDropped();
  call.req.socket.destroy();
}
