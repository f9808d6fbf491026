import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { payWithSlot } from "../../support/pay-with-slot";

/** A day of a merchant's totals as `GET /_local/totals/{merchant}` answers it. */
export interface DayTotal {
  day: string;
  total: number;
  tag: number;
}

/** What a stream-job trace needs: a payment by a fresh caller, and the sink's totals of a merchant. */
export function totalsTrace(stack: LocalStack, name: string) {
  const api = new ChaosApi(stack.apiUrl);
  const run = `${name}-${Date.now().toString(36)}`;
  let n = 0;
  const merchant = (m: string) => `${run}-${m}`;
  const totals = (m: string) => api.local<DayTotal[]>("GET", `/totals/${merchant(m)}`);
  const sum = async (m: string) => (await totals(m)).reduce((a, d) => a + d.total, 0);
  return {
    api,
    merchant,
    totals,
    sum,
    /**
     * Waits until the Region's pollers have delivered and committed what the streams hold: a fault armed after it
     * is taken by the next batch, not by one still between its sink write and its commit.
     */
    settled: () => stack.regions.primary.idle(),
    /** Pays (or, with `declined`, is declined) for a merchant of this trace; answers the payment id. */
    async pay(m: string, amount: number, declined = false): Promise<string> {
      n += 1;
      const answer = await payWithSlot(api, `${run}-u${n}`, `${run}-k${n}`, {
        order_id: `o${n}`,
        amount,
        currency: "USD",
        payment_method: declined ? "pm_card_declined" : "pm_card_visa",
        merchant_id: merchant(m),
      });
      return String(answer.body.payment_id);
    },
    /** Waits until a merchant's totals over all days come to `total` (or fails after `ms`). */
    async until(m: string, total: number, ms = 10_000): Promise<number> {
      const stop = Date.now() + ms;
      let now = await sum(m);
      while (now !== total && Date.now() < stop) {
        await new Promise((r) => setTimeout(r, 100));
        now = await sum(m);
      }
      return now;
    },
  };
}
