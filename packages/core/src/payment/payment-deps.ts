import type { ClaimStore } from "../claim/claim-store";
import type { Clock } from "../clock/clock";
import type { AppConfig } from "../config/config";
import type { LedgerPort } from "../ledger/ledger-port";
import type { PspPort } from "../psp/psp-port";

/** The ports the payment operations run on. */
export interface PaymentDeps {
  ledger: LedgerPort;
  claims: ClaimStore;
  psp: PspPort;
  config: AppConfig;
  clock: Clock;
}
