import type { Slot } from "../psp-budget/psp-budget";
import { countPspCall } from "../psp-budget/within-budget";
import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";

/**
 * How late a retry may come for its booked slot and still use it (ms). Sending up to a second after the slot is
 * safe only because the budget leaves one request per second of headroom under the PSP's cap; a later retry has
 * lost its place and books again.
 */
export const BOOKING_LATE_MS = 1_000;

/** What the payment's charge waits for: a slot for now, or a refusal that keeps (or could not keep) its place. */
export type Place = { slot: Extract<Slot, { granted: true }> } | { refused: Refusal };

/**
 * Finds the payment's place in the PSP's queue (issue 29): its booked slot when its retry comes for it, else the
 * next free slot within the horizon. A slot further away than the request can wait is booked for this payment
 * and refused with a Retry-After that brings the retry back just before it; nothing else is written or charged.
 */
export async function keepPlace(deps: PaymentDeps, paymentId: string, waitMs: number): Promise<Place> {
  const now = Date.now();
  const booking = await deps.slotBookings.find(paymentId);
  if (booking && now <= booking.atMs + BOOKING_LATE_MS) {
    if (booking.atMs - now > waitMs) return { refused: placeKept(booking.atMs - now, "is kept") };
    if (await deps.slotBookings.take(booking))
      return { slot: { granted: true, atMs: booking.atMs, spacingMs: booking.spacingMs } };
  }
  const horizonMs = deps.config.pspBookingHorizonS * 1000;
  const slot = await deps.pspBudget.reserve("POST /v1/charges", "live", Math.max(waitMs, horizonMs));
  if (!slot.granted) return { refused: queueFull(slot.retryAfterMs) };
  if (slot.atMs - Date.now() <= waitMs) return { slot };
  await deps.slotBookings.book({ paymentId, atMs: slot.atMs, spacingMs: slot.spacingMs ?? 0 });
  return { refused: placeKept(slot.atMs - Date.now(), "is booked") };
}

/**
 * The Retry-After (s) for a booked slot `ms` away: rounded down, so the retry comes at most a second early and
 * waits for its slot in the request, rather than late and behind it.
 */
export function retryAfterForBooking(ms: number): number {
  return Math.max(1, Math.floor(ms / 1000));
}

function placeKept(ms: number, how: string): Refusal {
  countPspCall("live", { kind: "rate-limited", retryAfterMs: ms, by: "budget" });
  const retryAfterS = retryAfterForBooking(ms);
  return new Refusal(
    "psp-unavailable",
    `our share of the PSP's rate limit is spent; nothing was charged or written to the ledger. Your place in the ` +
      `queue ${how} for ${retryAfterS} s from now: retry with the same Idempotency-Key after Retry-After.`,
    retryAfterS,
  );
}

function queueFull(retryAfterMs: number): Refusal {
  countPspCall("live", { kind: "rate-limited", retryAfterMs, by: "budget" });
  const retryAfterS = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new Refusal(
    "psp-unavailable",
    `our share of the PSP's rate limit is booked for longer than the queue keeps places; nothing was charged or ` +
      `written to the ledger. Retry with the same Idempotency-Key after Retry-After (${retryAfterS} s).`,
    retryAfterS,
  );
}
