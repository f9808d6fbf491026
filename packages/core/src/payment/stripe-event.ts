import type { RefundEvent } from "./apply-refund-event";
import { Refusal } from "./payment-errors";
import type { PspEvent } from "./psp-event";

/**
 * What one of Stripe's events is to us: the contract's PSP event it amounts to (then applied by the same allowed
 * moves, inbox and anomaly rule as `/webhooks/psp`), or nothing (Stripe sends many types; each is answered 200).
 */
export type StripeEventMapping =
  /** `refundStatusUnknown`: a `charge.refunded`, which Stripe sends for a refund still pending too. */
  | { kind: "event"; event: PspEvent; refundStatusUnknown?: true }
  | { kind: "refund"; event: RefundEvent }
  | { kind: "ignored"; reason: string };

type Obj = Record<string, unknown>;

/**
 * Maps a verified Stripe event onto the contract's PSP event, purely:
 * - `payment_intent.succeeded` is `charge.succeeded` (the charge id is the PaymentIntent's, as the adapter records it);
 * - `payment_intent.payment_failed` is `charge.failed`, with the decline code of its `last_payment_error`;
 * - `charge.refunded` (in full) is `refund.succeeded` of the charge's PaymentIntent;
 * - `refund.updated`, `refund.failed` and `charge.refund.updated` are the refund's own news (`apply-refund-event.ts`).
 * Our reference is `metadata.payment_id`; the key of the request that caused the event (`request.idempotency_key`)
 * goes along, so that an event made by our own call names its payment by our derived key, as the generic PSP's do.
 * The event id is the inbox key. A known type whose body is not Stripe's shape is refused (400), never guessed at.
 */
export function mapStripeEvent(raw: unknown): StripeEventMapping {
  const e = objectOr(raw, "the event");
  const id = idOf(e.id, "id");
  const type = idOf(e.type, "type");
  if (!HANDLED.includes(type)) return { kind: "ignored", reason: `event type ${type} is not one we act on` };
  const object = objectOr(objectOr(e.data, "data").object, "data.object");
  const key = requestKeyOf(e.request);
  if (type === "charge.refunded") return refunded(id, object, key);
  if (REFUND_TYPES.includes(type)) return { kind: "refund", event: refundEventOf(id, object, key) };
  const intent = idOf(object.id, "data.object.id");
  const charge = chargeOf(intent, object, key);
  if (type === "payment_intent.succeeded") return event(id, "charge.succeeded", charge);
  const error = object.last_payment_error as Obj | null | undefined;
  const decline = stringOf(error?.decline_code) ?? stringOf(error?.code) ?? "card_declined";
  return event(id, "charge.failed", { ...charge, decline_code: decline });
}

/** The events that carry a Refund object: how a pending refund ends, and how a refund fails after it was accepted. */
const REFUND_TYPES = ["refund.updated", "refund.failed", "charge.refund.updated"];

const HANDLED = [
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "charge.refunded",
  ...REFUND_TYPES,
];

// Our payments are refunded in full only; a partial refund made at Stripe directly is not REFUNDED (the reconcile
// and a person see it; moving the payment would tell the buyer every cent came back).
function refunded(id: string, charge: Obj, key: string | undefined): StripeEventMapping {
  const chargeId = idOf(charge.id, "data.object.id");
  if (charge.refunded !== true)
    return {
      kind: "ignored",
      reason: `charge ${chargeId} is only partly refunded; our payments refund in full`,
    };
  const pi = charge.payment_intent;
  const intent = typeof pi === "string" ? pi : stringOf((pi as Obj | null | undefined)?.id);
  const refunds = (charge.refunds as Obj | null | undefined)?.data;
  const refund = Array.isArray(refunds) ? stringOf((refunds[0] as Obj | undefined)?.id) : undefined;
  const mapped = event(id, "refund.succeeded", chargeOf(intent ?? chargeId, charge, key));
  if (refund) mapped.event.data.refund = { id: refund };
  return { ...mapped, refundStatusUnknown: true };
}

// Stripe names the failure in `failure_reason` (e.g. `expired_or_canceled_card`); a refund it fails later carries no
// request of ours, so our reference is the metadata we gave the refund.
function refundEventOf(id: string, refund: Obj, key: string | undefined): RefundEvent {
  const reference = stringOf((refund.metadata as Obj | null | undefined)?.payment_id);
  const status = stringOf(refund.status) ?? "pending";
  const reason = stringOf(refund.failure_reason);
  return {
    id,
    refundId: idOf(refund.id, "data.object.id"),
    status,
    ...(reason ? { reason } : {}),
    ...(reference ? { reference } : {}),
    ...(key ? { key } : {}),
  };
}

function chargeOf(id: string, object: Obj, key: string | undefined): PspEvent["data"]["charge"] {
  const reference = stringOf((object.metadata as Obj | null | undefined)?.payment_id);
  return { id, ...(key ? { idempotency_key: key } : {}), ...(reference ? { reference } : {}) };
}

function event(
  id: string,
  type: PspEvent["type"],
  charge: PspEvent["data"]["charge"],
): { kind: "event"; event: PspEvent } {
  return { kind: "event", event: { id, type, data: { charge } } };
}

function requestKeyOf(request: unknown): string | undefined {
  if (typeof request !== "object" || request === null) return undefined;
  return stringOf((request as Obj).idempotency_key);
}

function objectOr(v: unknown, what: string): Obj {
  if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Obj;
  throw new Refusal("bad-request", `${what} of the Stripe event must be an object`);
}

function idOf(v: unknown, what: string): string {
  const s = stringOf(v);
  if (s && s.length <= 255) return s;
  throw new Refusal("bad-request", `${what} of the Stripe event must be a string of 1 to 255 characters`);
}

function stringOf(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}
