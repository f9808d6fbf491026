import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import { advanceWhenPspIdle } from "../../../scripts/lib/chaos/advance-when-psp-idle";
import type { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { History } from "../../../scripts/lib/chaos/history";
import {
  failActiveRegion,
  followActiveRegion,
  bringBackRegions as recoverRegions,
} from "../../../scripts/lib/chaos/region-nemesis";
import { payWithSlot } from "../../support/pay-with-slot";
import { type Order, orderOf, replicated, retried } from "./refund-lost-to-an-older-state";

/** Long enough to refuse the cancel's refund at the PSP's edge, short against the failover. */
const PSP_OUTAGE_MS = 1_500;

/**
 * Issue 40's trace: the standby holds the older PENDING copy of a payment; with replication stalled the primary
 * settles it (SUCCEEDED) and the buyer cancels it (REFUND_PENDING, the buyer told 202), but the PSP is out and the
 * refund is not sent; the primary fails, a forced failover promotes the standby, which settles its PENDING copy to
 * SUCCEEDED on the app's retry; the primary returns and replication resumes, the standby's later write winning. The
 * standby's resolver then runs a few passes. Answers what the active Region and the PSP say at the end.
 */
export async function refundInFlightAcrossFailover(stack: LocalStack, api: ChaosApi) {
  const order = orderOf(`rif-${Date.now().toString(36)}`);
  const history = new History();
  await followActiveRegion(api);
  const { paid, cancelled } = await settledAndCancelledInPrimary(api, order);
  const paymentId = String(paid.body.payment_id);
  await failActiveRegion(api, history);
  // The app retries until the outage is over and the standby answers final.
  const retry = await retried(api, order);
  await recoverRegions(api, history);
  await api.local("POST", "/replication", { paused: false });
  await replicated(api);
  const read = await resolvedUntil(api, order.caller, paymentId, "REFUNDED");
  const charges = await api.local<Array<{ reference: string; refunded: boolean }>>("GET", "/psp/charges");
  return {
    paid,
    cancelled,
    retry,
    read,
    charges: charges.filter((c) => c.reference === paymentId),
    refunds: stack.psp.refunds().filter((r) => r.idempotency_key.startsWith(paymentId)),
  };
}

// The standby's copy: the primary dies after its durable guard, before the PSP, and the row ships. Then, with
// replication paused, the app's retry settles it in the primary and the buyer cancels while the PSP is out.
async function settledAndCancelledInPrimary(api: ChaosApi, order: Order) {
  await api.local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
  await payWithSlot(api, order.caller, order.key, order.body);
  await replicated(api);
  await api.local("POST", "/replication", { paused: true });
  const paid = await retried(api, order);
  await api.local("POST", "/faults", { psp_outage_ms: PSP_OUTAGE_MS });
  const cancelled = await api.cancel(order.caller, String(paid.body.payment_id));
  return { paid, cancelled };
}

// The resolver's schedule, a few times: the clock moves past the refund's deadline and margin before each pass.
async function resolvedUntil(api: ChaosApi, caller: string, paymentId: string, state: string) {
  let read = await api.payment(caller, paymentId);
  for (let pass = 0; pass < 4 && read.body.state !== state; pass++) {
    await advanceWhenPspIdle(api, 10);
    await api.local("POST", "/run/resolver");
    read = await api.payment(caller, paymentId);
  }
  return read;
}
