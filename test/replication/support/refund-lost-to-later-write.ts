import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { tablesOf } from "../../support/ledger-reads";
import { payWithSlot } from "../../support/pay-with-slot";
import { asyncQuiet } from "../../support/tables";
import { putJournalLegs } from "./replicated-journal";

/**
 * Arranges what the fault checker's two-Region schedule left: this Region's row says SUCCEEDED (its later write won
 * under last-writer-wins) while the refund the other Region applied reaches it as the two journal entries of the
 * reversal, as replication delivers them. Answers the row, the journal and the merchant once the async half is quiet.
 */
export async function refundJournalArrivesAfterRowWrite(stack: LocalStack) {
  const api = new ChaosApi(stack.apiUrl);
  const caller = `rl-${Date.now().toString(36)}`;
  const merchant = `${caller}-m1`;
  const order = { order_id: "o1", amount: 6_300, currency: "USD", payment_method: "pm_card_visa" };
  const paid = await payWithSlot(api, caller, `${caller}-k1`, { ...order, merchant_id: merchant });
  const paymentId = String(paid.body.payment_id);
  await asyncQuiet(stack);
  const t = tablesOf(stack);
  await putJournalLegs(stack, paymentId, 6_300, [
    [3, `merchant_payable:${merchant}`, "debit"],
    [4, "psp_clearing", "credit"],
  ]);
  // The relay reads the stream every few hundred milliseconds; the catch-up's event then goes the whole way.
  await new Promise((r) => setTimeout(r, 1_500));
  await asyncQuiet(stack);
  const merchantView = await api.local<{ balance: number; credits: number }>("GET", `/merchants/${merchant}`);
  return { paid, row: await t.payment(paymentId), journal: await t.journal(paymentId), merchantView };
}
