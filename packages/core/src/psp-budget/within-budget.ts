import type { Clock } from "../clock/clock";
import type { PspOrigin, PspReply } from "../psp/psp-port";
import type { PspBudget, PspEndpoint, Slot } from "./psp-budget";
import { unsafe429IsUnknown } from "./psp-budget-test-switches";

/** The least time a PSP call needs to be worth sending: a slot later than the deadline less this is no slot. */
export const MIN_PSP_CALL_MS = 1_000;

/** One PSP request to send within the budget and before a deadline on the domain's clock. */
export interface BudgetedCall {
  endpoint: PspEndpoint;
  origin: PspOrigin;
  /** The deadline on `clock`; every call gets only what is left of it. */
  untilMs: number;
  /** A slot reserved earlier (before the durable guard, say), used for the first send. */
  slot?: Slot;
  /** The longest wait for a slot (PSP_BUDGET_MAX_WAIT_MS). */
  maxWaitMs: number;
}

/** How long a request may wait for a slot: what the deadline leaves after a call's own time, at most `maxWaitMs`. */
export function slotWaitMs(clock: Clock, untilMs: number, maxWaitMs: number): number {
  return Math.min(maxWaitMs, untilMs - clock.now() - MIN_PSP_CALL_MS);
}

/**
 * Sends one PSP request in a budget slot and, when the PSP answers 429 (it did not run the request), sends it
 * again with the same key after its Retry-After while the deadline leaves time; otherwise answers "rate-limited".
 */
export async function withinBudget(
  budget: PspBudget,
  clock: Clock,
  req: BudgetedCall,
  send: (timeoutMs: number) => Promise<PspReply>,
): Promise<PspReply> {
  let slot = req.slot;
  for (;;) {
    const wait = slotWaitMs(clock, req.untilMs, req.maxWaitMs);
    slot ??=
      wait >= 0
        ? await budget.reserve(req.endpoint, req.origin, wait)
        : { granted: false, retryAfterMs: 1_000 };
    if (!slot.granted) return { kind: "rate-limited", retryAfterMs: slot.retryAfterMs, by: "budget" };
    await sleep(slot.atMs - Date.now());
    const reply = await send(req.untilMs - clock.now());
    if (reply.kind !== "rate-limited") return reply;
    if (unsafe429IsUnknown()) return { kind: "unknown", reason: "PSP answered 429" };
    if (clock.now() + reply.retryAfterMs + MIN_PSP_CALL_MS > req.untilMs) return reply;
    await sleep(reply.retryAfterMs);
    slot = undefined;
  }
}

const sleep = (ms: number): Promise<void> =>
  ms > 0 ? new Promise((done) => setTimeout(done, ms)) : Promise.resolve();
