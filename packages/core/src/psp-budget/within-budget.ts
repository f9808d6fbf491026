import type { Clock } from "../clock/clock";
import type { PspGate, PspOrigin, PspReply } from "../psp/psp-port";
import { countSignal } from "../signals/signal-sink";
import { type PspBudget, type PspEndpoint, SEARCH_ENDPOINT, type Slot } from "./psp-budget";
import {
  unsafe429IsUnknown,
  unsafeKeepFutureSends,
  unsafeOneSlotPerLookup,
} from "./psp-budget-test-switches";

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
    const refused = await awaitSlot(budget, clock, req, slot);
    if (refused) return refused;
    const reply = countPspCall(req.origin, await send(req.untilMs - clock.now()));
    if (reply.kind !== "rate-limited") return reply;
    if (unsafe429IsUnknown()) return { kind: "unknown", reason: "PSP answered 429" };
    if (clock.now() + reply.retryAfterMs + MIN_PSP_CALL_MS > req.untilMs) return reply;
    await sleep(reply.retryAfterMs);
    slot = undefined;
  }
}

/**
 * Reserves a slot (or uses the one given) and waits for it: undefined when the request may go now, or the
 * budget's refusal (counted) when no slot comes in time or the process woke too late to send.
 */
async function awaitSlot(
  budget: PspBudget,
  clock: Clock,
  req: BudgetedCall,
  given?: Slot,
): Promise<PspReply | undefined> {
  const wait = slotWaitMs(clock, req.untilMs, req.maxWaitMs);
  const slot =
    given ??
    (wait >= 0
      ? await budget.reserve(req.endpoint, req.origin, wait)
      : { granted: false, retryAfterMs: 1_000 });
  if (!slot.granted)
    return countPspCall(req.origin, { kind: "rate-limited", retryAfterMs: slot.retryAfterMs, by: "budget" });
  await sendTimeOf(req.endpoint, slot);
  // A busy process can wake far past its slot: then the call is not worth sending, and nothing ran.
  if (req.untilMs - clock.now() < MIN_PSP_CALL_MS / 2)
    return countPspCall(req.origin, { kind: "rate-limited", retryAfterMs: 1_000, by: "budget" });
  return undefined;
}

/**
 * The gate a lookup passes before each of its requests: every list page, search and retrieve waits for its own
 * slot (search on its own cap, the others on the reads' share), within the lookup's deadline.
 */
export function budgetGate(
  budget: PspBudget,
  clock: Clock,
  call: Omit<BudgetedCall, "endpoint" | "slot">,
): PspGate {
  let passed = 0;
  return (request) => {
    if (unsafeOneSlotPerLookup() && passed++ > 0) return Promise.resolve(undefined);
    const endpoint: PspEndpoint = request === "search" ? SEARCH_ENDPOINT : "GET /v1/charges";
    return awaitSlot(budget, clock, { ...call, endpoint });
  };
}

/** A call's outcome as on-call reads it: ok, declined, 429 (the PSP's), budget-refused (ours), or the reply's kind. */
export function pspOutcome(reply: PspReply): string {
  if (reply.kind === "done") return "ok";
  if (reply.kind === "rate-limited") return reply.by === "psp" ? "429" : "budget-refused";
  return reply.kind;
}

/** Counts one PSP call (or our budget's refusal to make it) by origin and outcome, and passes the reply on. */
export function countPspCall(origin: PspOrigin, reply: PspReply): PspReply {
  const outcome = pspOutcome(reply);
  countSignal("PspCalls", 1, { Origin: origin, Outcome: outcome });
  if (outcome === "429") countSignal("PspThrottled");
  if (outcome === "budget-refused") countSignal("PspBudgetRefused");
  return reply;
}

/** This process's sends to each endpoint in the last second (real time, oldest first). */
const recentSends = new Map<PspEndpoint, number[]>();

/**
 * Waits for the slot, and then keeps this process's sends to an endpoint within the budget's rate over any
 * sliding second. Timers that fire late fire together: without this, requests of several slots would leave in
 * one burst when the event loop was busy (locally every handler shares one), and the PSP counts a sliding second.
 */
async function sendTimeOf(endpoint: PspEndpoint, slot: Extract<Slot, { granted: true }>): Promise<void> {
  await sleep(slot.atMs - Date.now());
  // Never stricter than the bucket itself (22/s allows 22 a second, 4.4/s allows 5): it only breaks up bursts.
  const perSecond = Math.max(1, Math.ceil(1000 / (slot.spacingMs ?? 1) - 1e-9));
  const sent = recentSends.get(endpoint) ?? [];
  recentSends.set(endpoint, sent);
  for (;;) {
    const now = Date.now();
    // A send stamped after now means the clock stepped back (an NTP step; a simulation's next world): it says
    // nothing about the last second, and waiting for it to age would wait out the step.
    if ((sent.at(-1) ?? 0) > now && !unsafeKeepFutureSends()) sent.length = 0;
    while (sent.length > 0 && (sent[0] as number) <= now - 1000) sent.shift();
    if (sent.length < perSecond) break;
    await sleep((sent[0] as number) + 1000 - now + 1);
  }
  sent.push(Date.now());
}

/** A real-time wait; zero or less resolves at once. */
export const sleep = (ms: number): Promise<void> =>
  ms > 0 ? new Promise((done) => setTimeout(done, ms)) : Promise.resolve();
