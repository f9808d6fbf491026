import { type FakePsp, type FakePspOptions, startFakePsp } from "../../../psp/src/index";
import type { Clock } from "../../src/clock/clock";
import type { PaymentRow } from "../../src/ledger/ledger-items";
import type { PaymentDeps } from "../../src/payment/payment-deps";
import type { LookupCursor } from "../../src/psp/psp-port";
import { StripePsp } from "../../src/psp/stripe-psp";
import { MemoryPspBudget } from "../../src/psp-budget/memory-psp-budget";
import type { BudgetRates } from "../../src/psp-budget/psp-budget";

export const HOUR_MS = 60 * 60 * 1000;
/** The secret key the rig's adapter sends, which is the fake's account. */
export const RIG_KEY = "sk_test_lookups";

/** A clock on real time that a test moves forward (the fake PSP and the domain read the same one). */
export interface MovableClock extends Clock {
  advance(ms: number): void;
}

export function movableClock(): MovableClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** What the rig's ledger was asked: the sends recorded and the cursors kept, in order. */
export interface LedgerCalls {
  sends: number[][];
  cursors: Array<LookupCursor | undefined>;
}

/** A fake PSP on a movable clock, the Stripe adapter on it, and the ports replayCharge needs around them. */
export interface LookupRig {
  psp: FakePsp;
  clock: MovableClock;
  deps: PaymentDeps;
  calls: LedgerCalls;
}

/** Starts the rig: the fake with `opts`, a budget at `rates` (in this process), a ledger that records its writes. */
export async function startLookupRig(opts: Partial<FakePspOptions>, rates: BudgetRates): Promise<LookupRig> {
  const clock = movableClock();
  const psp = await startFakePsp({ webhookSecret: "whsec_test", clock, ...opts });
  const stripe = new StripePsp(RIG_KEY, { host: "127.0.0.1", port: psp.port, protocol: "http" }, clock);
  const calls: LedgerCalls = { sends: [], cursors: [] };
  const ledger = {
    recordPspSends: async (s: { after: number[] }) => {
      calls.sends.push(s.after);
      return true;
    },
    keepLookupCursor: async (_id: string, _state: string, c: LookupCursor | undefined) => {
      calls.cursors.push(c);
    },
  };
  const deps = {
    psp: stripe,
    pspBudget: new MemoryPspBudget(rates),
    ledger,
    config: { deadlineMs: 5_000, pspKeyWindowS: 86_400, pspBudgetMaxWaitMs: 1_000, pspNotFoundSettleS: 600 },
    clock,
  } as unknown as PaymentDeps;
  return { psp, clock, deps, calls };
}

/** An UNKNOWN payment row created at `createdAt` (our clock), with its recorded sends if any. */
export function unknownRow(paymentId: string, createdAt: number, sends?: number[]): PaymentRow {
  return {
    payment_id: paymentId,
    caller: "app_1",
    client_key: `key_${paymentId}`,
    fingerprint: "fp",
    order_id: `order_${paymentId}`,
    amount: 3000,
    currency: "USD",
    payment_method: "pm_card_visa",
    merchant_id: "merchant_1",
    state: "UNKNOWN",
    ...(sends ? { psp_sends: sends } : {}),
    created_at: createdAt,
    updated_at: createdAt,
  };
}

/** List pages and searches the fake answered. */
export function pagesOf(psp: FakePsp): { pages: number; searches: number } {
  const log = psp.requestLog();
  return {
    pages: log.filter((l) => l === "GET /v1/payment_intents").length,
    searches: log.filter((l) => l === "GET /v1/payment_intents/search").length,
  };
}
