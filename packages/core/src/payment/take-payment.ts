import { randomUUID } from "node:crypto";
import {
  IdempotencyAlreadyInProgressError,
  IdempotencyConfig,
  IdempotencyValidationError,
  makeIdempotent,
} from "@aws-lambda-powertools/idempotency";
import type { ClaimAnswer } from "../claim/claim-answer";
import { type ClaimContext, claimContext, withClaimContext } from "../claim/claim-context";
import { ClaimLost } from "../claim/claim-table";
import { crashPoint } from "../faults/crash-point";
import { paymentIdOf, scopeOf } from "../ids/derive-ids";
import type { Slot } from "../psp-budget/psp-budget";
import { countPspCall, slotWaitMs } from "../psp-budget/within-budget";
import { answerVoidedKey } from "./answer-voided-key";
import type { ChargePayload } from "./charge-payload";
import type { EpochContext } from "./charged-elsewhere";
import { keepPlace } from "./keep-place";
import type { PaymentDeps } from "./payment-deps";
import { findRefusal, KeyVoided, Refusal } from "./payment-errors";
import { fingerprintOf, type PaymentRequest } from "./payment-request";
import { isChargeFinal } from "./payment-state";
import { stallIfArmed, unsafeNoDeadlineCheck, unsafeNoFairQueue } from "./payment-test-switches";
import { placeDurableGuard } from "./place-durable-guard";
import { checkPspMinimum } from "./psp-minimum";
import { type Rendered, renderFinal, renderPayment, renderProcessing } from "./render-payment";
import { replayCharge } from "./replay-charge";
import { settleCharge } from "./settle-charge";

export type { ChargePayload } from "./charge-payload";

export interface TakePaymentInput {
  caller: string;
  key: string;
  request: PaymentRequest;
  email?: string;
  /** The arrival stamp (API Gateway's requestContext.timeEpoch). */
  arrivalMs: number;
}

/**
 * Builds POST /payments: claim, durable guard, PSP call with the derived key, and an answer to every repeat; a
 * void of an earlier Region epoch than the one `controlNow` reads is first checked at the PSP.
 */
export function makeTakePayment(
  deps: PaymentDeps,
): (input: TakePaymentInput, context?: EpochContext) => Promise<Rendered> {
  const config = new IdempotencyConfig({
    eventKeyJmesPath: "scope",
    payloadValidationJmesPath: "fingerprint",
    expiresAfterSeconds: deps.config.keyWindowS,
    responseHook: (response) => {
      claimContext().replayed = true;
      return response;
    },
  });
  // Powertools asks Lambda for its remaining time to size the lease; our lease is the request's own
  // deadline, which the claim store reads from the claim context instead.
  config.registerLambdaContext(leaseClock as never);
  const claimed = makeIdempotent((p: ChargePayload) => chargeOnce(deps, p), {
    persistenceStore: deps.claims,
    config,
  });
  return async (input, context = {}) => {
    const deadlineAt = input.arrivalMs + deps.config.deadlineMs - deps.config.clockMarginMs;
    if (deps.clock.now() > deadlineAt) {
      throw new Refusal(
        "deadline-passed",
        "the request is older than the server deadline on arrival; nothing ran",
      );
    }
    // Before the claim: an amount the PSP would refuse outright writes nothing anywhere (422).
    checkPspMinimum(input.request, deps.config.psp);
    const payload = payloadOf(input, deadlineAt);
    const ctx: ClaimContext = {
      owner: randomUUID(),
      leaseUntil: input.arrivalMs + deps.config.deadlineMs,
      paymentId: payload.payment_id,
      sideEffectStarted: false,
      replayed: false,
      beforeTakeover: async () => {
        ctx.durableRow = await deps.ledger.getPayment(payload.payment_id);
      },
      judgeByGuard: () => judgeByGuard(deps, payload),
    };
    try {
      const answer = (await withClaimContext(ctx, () => claimed(payload))) as ClaimAnswer;
      await crashPoint("pay.after_completion");
      return await render(deps, answer, ctx.replayed);
    } catch (err) {
      return mapClaimError(deps, err, payload, context);
    }
  };
}

async function judgeByGuard(deps: PaymentDeps, p: ChargePayload): Promise<void> {
  const locator = await deps.ledger.getLocator(p.caller, p.key);
  if (locator?.state === "VOID") throw new KeyVoided(locator.epoch);
  if (locator && locator.fingerprint !== p.fingerprint) {
    throw new Refusal(
      "fingerprint-mismatch",
      "this Idempotency-Key was used with a different request; nothing ran",
    );
  }
}

const leaseClock = { getRemainingTimeInMillis: () => Math.max(1, claimContext().leaseUntil - Date.now()) };

function payloadOf(input: TakePaymentInput, deadlineAt: number): ChargePayload {
  return {
    scope: scopeOf(input.caller, input.key),
    fingerprint: fingerprintOf(input.request),
    payment_id: paymentIdOf(input.caller, input.key),
    caller: input.caller,
    key: input.key,
    request: input.request,
    email: input.email,
    deadline_at: deadlineAt,
  };
}

/** The claimed work: the durable guard first, then the PSP, within the request's own deadline. */
async function chargeOnce(deps: PaymentDeps, p: ChargePayload): Promise<ClaimAnswer> {
  const ctx = claimContext();
  await stallIfArmed();
  await crashPoint("pay.after_claim");
  // Past the deadline nothing new is committed (Part 4): a request that stalled after its claim
  // writes no payment row; a row already there still answers.
  if (deps.clock.now() > p.deadline_at && !ctx.durableRow && !unsafeNoDeadlineCheck()) {
    const locator = await deps.ledger.getLocator(p.caller, p.key);
    if (!locator)
      throw new Refusal(
        "deadline-passed",
        "the request reached its deadline before it could start; nothing ran",
      );
  }
  // A new payment takes its PSP slot before anything is written, so a spent budget refuses it whole.
  const slot = ctx.durableRow ? undefined : await liveChargeSlot(deps, p);
  const { row, existing } = await placeDurableGuard(deps, p);
  await crashPoint("pay.after_guard");
  ctx.paymentId = row.payment_id;
  if (isChargeFinal(row.state)) {
    ctx.replayed = existing;
    return renderPayment(row);
  }
  const remaining = p.deadline_at - deps.clock.now();
  if (remaining <= 0)
    return renderPayment(await settleCharge(deps, row.payment_id, { kind: "unknown", reason: "deadline" }));
  ctx.sideEffectStarted = true;
  // A row the guard just wrote holds this send already (psp_sends): no second write before it.
  const reply = await replayCharge(deps, row, p.deadline_at, {
    origin: "live",
    slot,
    sendRecorded: !existing,
  });
  await stallIfArmed("stall_after_psp_ms");
  await crashPoint("pay.after_psp");
  const settled = await settleCharge(deps, row.payment_id, reply, row);
  await crashPoint("pay.after_settle");
  return renderPayment(settled);
}

/**
 * Reserves the PSP slot for a new payment's charge, in arrival order (keepPlace). When the budget has none within
 * the wait, the buyer hears 503 with Retry-After and nothing is charged or written (the claim is released); a
 * payment the ledger already holds answers from its row instead, since its outcome may not be "nothing".
 */
async function liveChargeSlot(deps: PaymentDeps, p: ChargePayload): Promise<Slot> {
  const most = deps.config.pspBudgetMaxWaitMs;
  // Past the deadline there is no slot worth having: this is the deadline check again (and off with it).
  const wait = unsafeNoDeadlineCheck() ? most : slotWaitMs(deps.clock, p.deadline_at, most);
  if (wait < 0) return refuseCharge(deps, p, spentFor(1_000));
  if (!unsafeNoFairQueue()) {
    const place = await keepPlace(deps, p.payment_id, wait);
    return "slot" in place ? place.slot : refuseCharge(deps, p, place.refused);
  }
  const slot = await deps.pspBudget.reserve("POST /v1/charges", "live", wait);
  if (slot.granted) return slot;
  countPspCall("live", { kind: "rate-limited", retryAfterMs: slot.retryAfterMs, by: "budget" });
  return refuseCharge(deps, p, spentFor(slot.retryAfterMs));
}

async function refuseCharge(deps: PaymentDeps, p: ChargePayload, refusal: Refusal): Promise<Slot> {
  if (await deps.ledger.getLocator(p.caller, p.key))
    return { granted: false, retryAfterMs: (refusal.retryAfterS ?? 1) * 1000 };
  throw refusal;
}

function spentFor(retryAfterMs: number): Refusal {
  const retryAfterS = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new Refusal(
    "psp-unavailable",
    `our share of the PSP's rate limit is spent for the next ${retryAfterS} s; nothing was charged or written. ` +
      "Retry with the same Idempotency-Key after Retry-After.",
    retryAfterS,
  );
}

async function render(deps: PaymentDeps, answer: ClaimAnswer, replayed: boolean): Promise<Rendered> {
  if (answer.kind === "final") return renderFinal(answer, replayed);
  const row = await deps.ledger.getPayment(answer.payment_id);
  if (!row) return renderProcessing(answer.payment_id);
  const now = renderPayment(row);
  return now.kind === "final" ? renderFinal(now, replayed) : renderProcessing(answer.payment_id);
}

async function mapClaimError(
  deps: PaymentDeps,
  err: unknown,
  p: ChargePayload,
  context: EpochContext,
): Promise<Rendered> {
  if (err instanceof IdempotencyValidationError) {
    throw new Refusal(
      "fingerprint-mismatch",
      "this Idempotency-Key was used with a different request; nothing ran",
    );
  }
  if (err instanceof IdempotencyAlreadyInProgressError) {
    throw new Refusal("in-progress", "a request with this Idempotency-Key is still running; retry later", 1);
  }
  const refusal = findRefusal(err);
  if (refusal instanceof KeyVoided) return answerVoidedKey(deps, p, refusal, context);
  if (refusal) throw refusal;
  // A paused owner woke after a takeover: its completion failed, so it answers what the ledger holds.
  if (causeIs(err, ClaimLost)) return render(deps, { kind: "pointer", payment_id: p.payment_id }, true);
  throw err;
}

function causeIs(err: unknown, type: new (...args: never[]) => Error): boolean {
  for (let e: unknown = err, d = 0; e && d < 5; d++, e = (e as { cause?: unknown }).cause) {
    if (e instanceof type) return true;
  }
  return false;
}
