import type { Charge, Refund } from "./ledger";

/** What happened in the ledger, before it is written as an event of the instance's dialect. */
export type Occurrence =
  | { kind: "charge"; charge: Charge }
  | { kind: "refund"; charge: Charge; refund: Refund };

/** The request an occurrence came from, which Stripe's events name. */
export interface Origin {
  requestId: string;
  idempotencyKey: string;
}
