import Stripe from "stripe";
import { stripeEndpointOf } from "../config/psp-dialect";
import type { PspChargeRecord } from "./compare-records";
import type { ReadProgress } from "./reconcile-sources";

/**
 * Every PaymentIntent created since `sinceS` (unix seconds), every page of Stripe's list API (read-after-write
 * consistent, unlike search), as the reconcile's PSP records: the intent is the charge (its id is what the ledger
 * holds as `psp_charge`), `metadata.payment_id` our reference. Anything but `succeeded` counts as not charged.
 * Refunded: from the expanded `latest_charge`; where a server does not expand it, from the intent's refunds list.
 */
export async function stripePspCharges(
  pspUrl: string,
  apiKey: string,
  sinceS: number,
  progress: ReadProgress = () => undefined,
): Promise<PspChargeRecord[]> {
  // A read: the SDK may retry it itself (no idempotency at stake), within the reconcile's own time.
  const stripe = new Stripe(apiKey, { ...stripeEndpointOf(pspUrl), maxNetworkRetries: 2, timeout: 15_000 });
  const out: PspChargeRecord[] = [];
  let after: string | undefined;
  for (;;) {
    const page = await stripe.paymentIntents.list({
      created: { gte: sinceS },
      limit: 100,
      expand: ["data.latest_charge"],
      ...(after ? { starting_after: after } : {}),
    });
    for (const pi of page.data) if (pi.created >= sinceS) out.push(await recordOf(stripe, pi));
    progress(out.length);
    if (!page.has_more || page.data.length === 0) return out;
    after = page.data.at(-1)?.id;
  }
}

async function recordOf(stripe: Stripe, pi: Stripe.PaymentIntent): Promise<PspChargeRecord> {
  const succeeded = pi.status === "succeeded";
  return {
    id: pi.id,
    reference: pi.metadata?.payment_id ?? "",
    amount: pi.amount,
    currency: pi.currency.toUpperCase(),
    status: succeeded ? "succeeded" : "failed",
    refunded: succeeded ? await refundedOf(stripe, pi) : false,
    created: pi.created,
  };
}

async function refundedOf(stripe: Stripe, pi: Stripe.PaymentIntent): Promise<boolean> {
  const charge = pi.latest_charge;
  if (charge && typeof charge === "object") return charge.refunded;
  const refunds = await stripe.refunds.list({ payment_intent: pi.id, limit: 1 });
  return refunds.data.some((r) => r.status === "succeeded");
}
