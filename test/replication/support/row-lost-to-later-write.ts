import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { tablesOf } from "../../support/ledger-reads";
import { payWithSlot } from "../../support/pay-with-slot";
import { putJournalLegs } from "./replicated-journal";

/**
 * Arranges what the fault checker's two-Region schedule left: this Region's row is UNKNOWN (its later write won
 * under last-writer-wins), while the journal entries of the other Region's move to SUCCEEDED did replicate. Then
 * the resolver runs here; answers the row and the journal as they end.
 */
export async function resolverAfterLostRowWrite(stack: LocalStack) {
  const api = new ChaosApi(stack.apiUrl);
  const caller = `lw-${Date.now().toString(36)}`;
  const merchant = `${caller}-m1`;
  const order = { order_id: "o1", amount: 4_200, currency: "USD", payment_method: "pm_card_visa" };
  await api.local("POST", "/faults", { psp_delay_ms: 1_900, n: 1 });
  const first = await payWithSlot(api, caller, `${caller}-k1`, { ...order, merchant_id: merchant });
  const paymentId = String(first.body.payment_id);
  const t = tablesOf(stack);
  await putJournalLegs(stack, paymentId, 4_200, [
    [1, "psp_clearing", "debit"],
    [2, `merchant_payable:${merchant}`, "credit"],
  ]);
  await api.local("POST", "/clock", { advance_s: 30 });
  await api.local("POST", "/run/resolver");
  const until = Date.now() + 10_000;
  let merchantView = await api.local<{ balance: number; credits: number }>("GET", `/merchants/${merchant}`);
  while (merchantView.credits === 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 200));
    merchantView = await api.local("GET", `/merchants/${merchant}`);
  }
  return { first, row: await t.payment(paymentId), journal: await t.journal(paymentId), merchantView };
}
