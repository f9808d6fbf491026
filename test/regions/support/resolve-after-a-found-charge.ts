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
 * Seed 99's schedule 351 of the simulation, on the emulators: the old Region charges and dies after the PSP answered
 * (`crash_at: pay.after_psp`), before its claim and row replicate; a forced failover names the other Region. The app
 * asks "did it go through?" and the lookup finds the charge; it asks again and this lookup lags (`psp_search_lag`,
 * an empty page, as an index read from a replica further behind). Answers both resolves before the Regions recover.
 */
export async function resolveAfterAFoundCharge(api: ChaosApi) {
  const caller = `fc-${Date.now().toString(36)}`;
  const key = `${caller}-k0`;
  const order = { order_id: "o1", amount: 2_500, currency: "USD", payment_method: "pm_card_visa" };
  const history = new History();
  await followActiveRegion(api); // a trace before this one may have left the other Region active
  // A lag the trace before this one armed and never used (its second resolve answered what it kept) must not meet
  // this trace's first lookup.
  await api.local("DELETE", "/faults");
  await api.local("POST", "/replication", { paused: true });
  await api.local("POST", "/faults", { crash_at: "pay.after_psp", n: 1 });
  const died = await payWithSlot(api, caller, key, { ...order, merchant_id: `${caller}-m1` });
  await failActiveRegion(api, history);
  const found = await resolveUntilFound(api, caller, key);
  await api.local("POST", "/faults", { psp_search_lag: 1, n: 1 });
  const again = await api.resolve(caller, key);
  await api.local("DELETE", "/faults");
  await api.local("POST", "/replication", { paused: false });
  await recoverRegions(api, history);
  return { died, found, again, paymentId: paymentIdOf(caller, key) };
}

// The first lookup may miss a charge made a moment ago (the generic PSP's index may lag): the app asks again at
// Retry-After, here a few times half a second apart, until the lookup finds it.
async function resolveUntilFound(api: ChaosApi, caller: string, key: string) {
  let answer = await api.resolve(caller, key);
  for (let tries = 0; tries < 8 && answer.body.state === "PROCESSING"; tries++) {
    await new Promise((r) => setTimeout(r, 500));
    answer = await api.resolve(caller, key);
  }
  return answer;
}
