import type { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { History } from "../../../scripts/lib/chaos/history";
import { failActiveRegion, recoverRegions } from "../../../scripts/lib/chaos/region-nemesis";
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
