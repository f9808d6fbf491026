import type { ClaimStore } from "../claim/claim-store";
import type { Clock } from "../clock/clock";
import type { AppConfig } from "../config/config";
import type { LedgerPort } from "../ledger/ledger-port";
import type { PspPort } from "../psp/psp-port";
import type { PspBudget } from "../psp-budget/psp-budget";
import type { SlotBookings } from "../psp-budget/slot-bookings";

/** The ports the payment operations run on. */
export interface PaymentDeps {
  ledger: LedgerPort;
  claims: ClaimStore;
  psp: PspPort;
  /** Our share of the PSP's rate limits, shared by every invocation; live payments before the resolver. */
  pspBudget: PspBudget;
  /** Places kept in the PSP's queue for payments refused at the cap, so that they are served in arrival order. */
  slotBookings: SlotBookings;
  config: AppConfig;
  clock: Clock;
}
