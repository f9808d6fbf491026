import { paymentIdOf } from "../../../packages/core/src/ids/derive-ids";
import type { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { History } from "../../../scripts/lib/chaos/history";
import {
  failActiveRegion,
  followActiveRegion,
  bringBackRegions as recoverRegions,
} from "../../../scripts/lib/chaos/region-nemesis";
import { payWithSlot } from "../../support/pay-with-slot";

/**
 * The old Region charges and loses the reply, then fails before its claim and locator replicate; the engineer
 * fails over (forced) and the app asks the new Region "did it go through?". Found by the fault checker.
 */
export async function resolveAfterForcedFailover(api: ChaosApi) {
  const caller = `rf-${Date.now().toString(36)}`;
  const key = `${caller}-k1`;
  const order = { order_id: "o1", amount: 3_000, currency: "USD", payment_method: "pm_card_visa" };
  await api.local("POST", "/replication", { paused: true });
  await api.local("POST", "/faults", { psp_lose_reply: 1, n: 1 });
  const first = await payWithSlot(api, caller, key, { ...order, merchant_id: `${caller}-m1` });
  const history = new History();
  await failActiveRegion(api, history);
  const answer = await api.resolve(caller, key);
  const charges = await api.local<Array<{ reference: string }>>("GET", "/psp/charges");
  await api.local("POST", "/replication", { paused: false });
  await recoverRegions(api, history);
  return { first, answer, charged: charges.some((c) => c.reference === first.body.payment_id) };
}

/**
 * Issue 40's trace: the old Region charges and dies after the PSP answered (`crash_at: pay.after_psp`), before its
 * claim and row replicate; a forced failover names the other Region, whose lookup by our reference lags
 * (`psp_search_lag`). The app asks "did it go through?", pays again with a new key on VOID, and asks about the
 * first key again once the lag is over. The PSP's charges for the order are counted before replication resumes.
 */
export async function resolveWhileLookupLags(api: ChaosApi) {
  const caller = `rl-${Date.now().toString(36)}`;
  const keys = [`${caller}-k0`, `${caller}-k1`] as const;
  const body = { order_id: "o1", amount: 3_000, currency: "USD", payment_method: "pm_card_visa" };
  const order = { ...body, merchant_id: `${caller}-m1` };
  const history = new History();
  await followActiveRegion(api); // a trace before this one may have left the other Region active
  await api.local("POST", "/replication", { paused: true });
  await api.local("POST", "/faults", { crash_at: "pay.after_psp", n: 1 });
  const died = await payWithSlot(api, caller, keys[0], order);
  await failActiveRegion(api, history);
  await api.local("POST", "/faults", { psp_search_lag: 1, n: 1 });
  const lagging = await api.resolve(caller, keys[0]);
  const paid = lagging.body.state === "VOID" ? await payWithSlot(api, caller, keys[1], order) : undefined;
  const after = await api.resolve(caller, keys[0]);
  const charged = await chargedOf(
    api,
    keys.map((k) => paymentIdOf(caller, k)),
  );
  await api.local("POST", "/replication", { paused: false });
  await recoverRegions(api, history);
  return { died, lagging, paid, after, charged, first: paymentIdOf(caller, keys[0]) };
}

/**
 * Part 9 twice over (found by the fault checker): the primary dies after its durable guard, before the PSP, and
 * fails before the row replicates; in the standby, resolve finds no trace and voids the key, and the app pays with
 * a new key. The primary comes back, then the standby fails before its tombstone replicates, and a forced failover
 * returns to the primary, whose resolver finds the old PENDING row with no VOID beside it.
 */
export async function voidLostWithItsRegion(api: ChaosApi) {
  const caller = `vl-${Date.now().toString(36)}`;
  const order = { order_id: "o1", amount: 4_000, currency: "USD", payment_method: "pm_card_visa" };
  const body = { ...order, merchant_id: `${caller}-m1` };
  const history = new History();
  await api.local("POST", "/replication", { paused: true });
  await api.local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
  const died = await payWithSlot(api, caller, `${caller}-k0`, body);
  await failActiveRegion(api, history);
  const voided = await resolveWhenFinal(api, caller, `${caller}-k0`);
  const paid = await payWithSlot(api, caller, `${caller}-k1`, body);
  await failActiveRegion(api, history);
  await api.local("POST", "/replication", { paused: false });
  for (const advance_s of [60, 700]) {
    await api.local("POST", "/clock", { advance_s });
    await api.local("POST", "/run/resolver");
  }
  const references = [paymentIdOf(caller, `${caller}-k0`), String(paid.body.payment_id)];
  const charged = await chargedOf(api, references);
  const orphan = await api.payment(caller, references[0] ?? "");
  await recoverRegions(api, history);
  return { died, voided, paid, orphan, charged };
}

/**
 * Part 9 the other way round (found by the fault checker): resolve voids an absent key in the primary, which fails
 * before the tombstone ships; the app sends the same key to the standby, which charges it, loses the reply and
 * fails before the row ships. Back in the primary, the app asks again and, on VOID, pays with a new key.
 */
export async function voidThenChargedElsewhere(api: ChaosApi) {
  const trace = await voidedHereChargedElsewhere(api, "vc");
  const { caller, keys, body } = trace;
  const again = await api.resolve(caller, keys[0]);
  const paid = again.body.state === "VOID" ? await payWithSlot(api, caller, keys[1], body) : undefined;
  const charged = await chargedOf(api, trace.references);
  await trace.heal();
  return { ...trace, again, paid, charged };
}

/**
 * The same trace, then back in the primary the app sends the voided key k0 to POST /payments itself (issue 26, item
 * 4): `app` is what it does there; the PSP's charges are counted before replication resumes.
 */
export async function payAfterAnInheritedVoid<T>(api: ChaosApi, app: (trace: VoidedHere) => Promise<T>) {
  const trace = await voidedHereChargedElsewhere(api, "pv");
  const acted = await app(trace);
  const charged = await chargedOf(api, trace.references);
  const psp = await api.local<Array<{ id: string; reference: string }>>("GET", "/psp/charges");
  const charge = psp.find((c) => c.reference === trace.references[0])?.id;
  await trace.heal();
  return { ...trace, acted, charged, charge };
}

/** An app that sends k0 again and, on a 409 key-voided alone, pays with a new key k1 (the client before issue 26). */
export function trustingThe409(api: ChaosApi) {
  return async ({ caller, keys, body }: VoidedHere) => {
    const again = await payWithSlot(api, caller, keys[0], body);
    const paid = again.status === 409 ? await payWithSlot(api, caller, keys[1], body) : undefined;
    return { again, paid };
  };
}

/** The trace up to the app's return to the primary with the voided key. */
export type VoidedHere = Awaited<ReturnType<typeof voidedHereChargedElsewhere>>;

// Resolve voids k0 in the primary under epoch e and the primary fails with the tombstone unshipped; the standby
// (e + 1) charges k0, loses the reply and fails with its row unshipped; the primary is active again (e + 2).
// Replication stays paused until `heal`, so the primary knows only its own void.
async function voidedHereChargedElsewhere(api: ChaosApi, prefix: string) {
  const caller = `${prefix}-${Date.now().toString(36)}`;
  const keys = [`${caller}-k0`, `${caller}-k1`] as const;
  const body = {
    order_id: "o1",
    amount: 5_000,
    currency: "USD",
    payment_method: "pm_card_visa",
    merchant_id: `${caller}-m1`,
  };
  const history = new History();
  await api.local("POST", "/replication", { paused: true });
  const voided = await resolveWhenFinal(api, caller, keys[0]);
  await failActiveRegion(api, history);
  await api.local("POST", "/faults", { psp_lose_reply: 1, n: 1 });
  const lost = await payWithSlot(api, caller, keys[0], body);
  await failActiveRegion(api, history);
  const references = keys.map((k) => paymentIdOf(caller, k));
  const heal = async () => {
    await api.local("POST", "/replication", { paused: false });
    await recoverRegions(api, history);
  };
  return { caller, keys, body, voided, lost, references, heal };
}

/** The references among `references` that the PSP holds a charge for, one entry per charge. */
async function chargedOf(api: ChaosApi, references: string[]): Promise<string[]> {
  const charges = await api.local<Array<{ reference: string }>>("GET", "/psp/charges");
  return charges.filter((c) => references.includes(c.reference)).map((c) => c.reference);
}

/** The not-found settle time of these stacks (`PSP_NOT_FOUND_SETTLE_S`, its default). */
const NOT_FOUND_SETTLE_S = 600;

// The generic PSP's lookup may lag: after a failover its "not found" is final only once the settle time has passed
// since the epoch began (issue 40), and resolve answers PROCESSING until then; the app asks again at Retry-After.
async function resolveWhenFinal(api: ChaosApi, caller: string, key: string) {
  const answer = await api.resolve(caller, key);
  if (answer.body.state !== "PROCESSING") return answer;
  await api.local("POST", "/clock", { advance_s: NOT_FOUND_SETTLE_S });
  return api.resolve(caller, key);
}
