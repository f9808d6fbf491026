import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import type { Answer, ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { History } from "../../../scripts/lib/chaos/history";
import {
  failActiveRegion,
  bringBackRegions as recoverRegions,
} from "../../../scripts/lib/chaos/region-nemesis";
import { CHAOS_TIMING } from "../../../scripts/lib/chaos/run-schedule";
import { tablesOf } from "../../support/ledger-reads";
import { payWithSlot } from "../../support/pay-with-slot";
import { eventually } from "../../support/tables";

type Merchant = { balance: number; credits: number; debits: number };

/** Longer than the forced failover's resume (three resolver passes), which the outage's first lookup starts. */
const PSP_OUTAGE_MS = 4_000;

/**
 * Issue 26 item 8, as the fault checker's shrunk schedule played it, with replication paused so that it happens every
 * time: the primary takes the payment and refunds it (the buyer hears REFUNDED, the PSP refunds, the merchant is
 * debited) and fails before any of it ships; the standby, promoted while the PSP is out, settles its older copy of
 * the row (PENDING, then UNKNOWN) to SUCCEEDED on the app's retry after the outage; the standby fails in turn and the
 * primary is promoted again, and when replication resumes the standby's later write of the row wins there (last
 * writer wins). Answers what the primary says at the end. Without the outage, the failover's resolver looks the
 * inherited row up instead, before the app's retry.
 */
export async function refundLostToAnOlderState(stack: LocalStack, api: ChaosApi, pspOutage = true) {
  const order = orderOf(`ro-${Date.now().toString(36)}`);
  const history = new History();
  const { paid, cancelled } = await paidAndRefundedInPrimary(stack, api, order);
  const paymentId = String(paid.body.payment_id);
  // The PSP is out while the standby is promoted, so the failover's resolver cannot look the inherited row up (a
  // lookup would see the refund); the app's retry after it replays the charge with its derived key instead.
  if (pspOutage) await api.local("POST", "/faults", { psp_outage_ms: PSP_OUTAGE_MS });
  await failActiveRegion(api, history);
  if (pspOutage) await new Promise((r) => setTimeout(r, PSP_OUTAGE_MS));
  const retry = await retried(api, order);
  const inStandby = await api.payment(order.caller, paymentId);
  await failActiveRegion(api, history);
  // The standby comes back fenced (passive); then replication resumes and its later write of the row ships.
  await recoverRegions(api, history);
  await api.local("POST", "/replication", { paused: false });
  await replicated(api);
  const merchant = await merchantIs(api, order.body.merchant_id, (m) => m.credits === 1 && m.debits === 1);
  const charges = await api.local<Array<{ reference: string; refunded: boolean }>>("GET", "/psp/charges");
  return {
    paid,
    cancelled,
    retry,
    inStandby,
    read: await api.payment(order.caller, paymentId),
    cancelledAgain: await api.cancel(order.caller, paymentId),
    charges: charges.filter((c) => c.reference === paymentId),
    refunds: stack.psp.refunds().filter((r) => r.idempotency_key.startsWith(paymentId)),
    journal: await tablesOf(stack).journal(paymentId),
    merchant,
  };
}

/** An order of the trace's caller. */
export type Order = ReturnType<typeof orderOf>;

/** The caller's order: its key, merchant and body. */
export function orderOf(caller: string) {
  const body = { order_id: "o1", amount: 5_800, currency: "USD", payment_method: "pm_card_visa" };
  return { caller, key: `${caller}-k1`, body: { ...body, merchant_id: `${caller}-m1` } };
}

// The standby's copy of the row: the primary dies after its durable guard, before the PSP, and the row ships. Then,
// with replication paused, the app's retry takes the payment over and the buyer cancels it, all in the primary.
async function paidAndRefundedInPrimary(stack: LocalStack, api: ChaosApi, order: Order) {
  await api.local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
  await payWithSlot(api, order.caller, order.key, order.body);
  await replicated(api);
  await api.local("POST", "/replication", { paused: true });
  const paid = await retried(api, order);
  const cancelled = await api.cancel(order.caller, String(paid.body.payment_id));
  await merchantIs(api, order.body.merchant_id, (m) => m.debits === 1);
  // The primary took the PSP's refund.succeeded too: nothing will ever tell the standby about the refund.
  await eventually(async () => (stack.psp.webhooksPending() === 0 ? true : undefined), 10_000, "webhooks");
  return { paid, cancelled };
}

/** The app's retry until a final answer; a crashed owner's claim holds the key until its deadline and margin pass. */
export async function retried(api: ChaosApi, order: Order): Promise<Answer> {
  const wait = CHAOS_TIMING.deadlineMs + CHAOS_TIMING.takeoverMarginMs + 200;
  return eventually(
    async () => {
      const answer = await payWithSlot(api, order.caller, order.key, order.body);
      if (answer.status === 201 || answer.status === 402) return answer;
      await new Promise((r) => setTimeout(r, wait / 4));
      return undefined;
    },
    15_000,
    `a final answer to ${order.key}`,
  );
}

async function merchantIs(api: ChaosApi, id: string, done: (m: Merchant) => boolean): Promise<Merchant> {
  return eventually(
    async () => {
      const m = await api.local<Merchant>("GET", `/merchants/${id}`);
      return done(m) ? m : undefined;
    },
    15_000,
    `merchant ${id}`,
  );
}

/** Waits until replication has nothing left to ship (a write not yet read from its stream needs a lag and a poll). */
export async function replicated(api: ChaosApi, withinMs = 20_000): Promise<void> {
  type View = { replication: { lag_ms: number; idle: boolean } };
  const { replication } = await api.local<View>("GET", "/regions");
  await new Promise((r) => setTimeout(r, replication.lag_ms + 250));
  await eventually(
    async () => ((await api.local<View>("GET", "/regions")).replication.idle ? true : undefined),
    withinMs,
    "replication to go idle",
  );
}
