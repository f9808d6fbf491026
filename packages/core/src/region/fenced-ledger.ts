import type { PaymentRow } from "../ledger/ledger-items";
import type { LedgerPort } from "../ledger/ledger-port";
import type { ActiveRegion } from "./active-region";

// Every ledger write of a Region is checked against its control record first, read at most `fenceCacheMs`
// ago: a Region fenced by the failover script stops writing within that time even if a handler's own cached
// view says otherwise. A write already past the check when the fence lands is covered by the failover's drain,
// which waits longer than the longest invocation before it promotes the other Region.
const WRITES = [
  "insertPending",
  "insertVoid",
  "move",
  "catchUp",
  "touchSweep",
  "recordPspSends",
  "keepLookupCursor",
  "recordSettleFailure",
  "recordAnomaly",
  "rememberWebhookEvent",
  "updateRefundMark",
] as const satisfies ReadonlyArray<keyof LedgerPort>;

/** The ledger with each write fenced by the Region's control record; reads pass straight through. */
export function fencedLedger(ledger: LedgerPort, region: ActiveRegion): LedgerPort {
  const fenced = Object.create(ledger) as LedgerPort;
  for (const name of WRITES) {
    const write = ledger[name] as (...args: unknown[]) => Promise<unknown>;
    // Writable and configurable like a class method, so that a test can still spy on it.
    Object.defineProperty(fenced, name, {
      value: async (...args: unknown[]) => {
        const control = await region.assertActive();
        // The durable guard and a VOID tombstone carry the epoch they were written under, so that a resolver in a
        // later epoch knows they crossed a failover. Set on the caller's row itself: the pay path moves that
        // same object on.
        if (name === "insertPending") (args[0] as PaymentRow).epoch = control.epoch;
        if (name === "insertVoid") args[3] = control.epoch;
        return write.apply(ledger, args);
      },
      writable: true,
      configurable: true,
    });
  }
  return fenced;
}
