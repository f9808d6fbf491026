import type { PspReply } from "./psp-port";
import { requestOptions, timed } from "./stripe-client";
import type { LookupCall } from "./stripe-lookup";
import { lookupErrorReply, refundReply } from "./stripe-replies";

/**
 * Reads one refund by its id, which is consistent: how a refund Stripe accepted but had not finished is settled,
 * since a replayed POST answers the body Stripe saved at its creation.
 */
export async function readRefundById(call: LookupCall, refundId: string): Promise<PspReply> {
  try {
    const res = await timed(call.untilMs - Date.now(), (t) =>
      call.stripe.refunds.retrieve(refundId, {}, requestOptions(call.apiKey, t, call.origin)),
    );
    return res.kind === "unknown" ? res : refundReply(res.value, "read");
  } catch (err) {
    return lookupErrorReply(err);
  }
}
