import { newId } from "./ids";
import type { Charge, Refund } from "./ledger";

/** The event types the PSP sends to the webhook endpoint. */
export type PspEventType = "charge.succeeded" | "charge.failed" | "refund.succeeded";

/** A webhook event; its id stays the same across every delivery attempt so receivers can dedupe. */
export interface PspEvent {
  id: string;
  type: PspEventType;
  created: number;
  data: {
    charge: {
      id: string;
      idempotency_key: string;
      reference: string;
      amount: number;
      currency: string;
      decline_code?: string;
    };
    refund?: { id: string; idempotency_key: string };
  };
}

function chargeSummary(c: Charge): PspEvent["data"]["charge"] {
  return {
    id: c.id,
    idempotency_key: c.idempotency_key,
    reference: c.reference,
    amount: c.amount,
    currency: c.currency,
    ...(c.decline_code ? { decline_code: c.decline_code } : {}),
  };
}

/** The event for a charge that has just succeeded or been declined. */
export function chargeEvent(charge: Charge, created: number): PspEvent {
  const type = charge.status === "succeeded" ? "charge.succeeded" : "charge.failed";
  return { id: newId("evt"), type, created, data: { charge: chargeSummary(charge) } };
}

/** The event for a refund; `data.charge` is the refunded charge, as the payments webhook looks it up by it. */
export function refundEvent(charge: Charge, refund: Refund, created: number): PspEvent {
  return {
    id: newId("evt"),
    type: "refund.succeeded",
    created,
    data: {
      charge: chargeSummary(charge),
      refund: { id: refund.id, idempotency_key: refund.idempotency_key },
    },
  };
}
