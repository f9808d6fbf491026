import { describe, expect, it } from "vitest";
import { ChaosApi } from "../../scripts/lib/chaos/chaos-api";
import { CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../support/local-stack";
import { refundLostToAnOlderState } from "./support/refund-lost-to-an-older-state";

Object.assign(process.env, chaosEnv());

// Issue 26 item 8 (seed Part 9): under last-writer-wins a later write made from an older copy of the row wins over a
// newer state the failed Region never shipped.
describe("a refund lost to an older state", () => {
  const stack = useLocalStack(CHAOS_TWO_REGION_OPTIONS);

  it("the standby's later SUCCEEDED loses to the refund's journal entry: REFUNDED, one refund, balanced, debited once", async () => {
    // prepare / act: paid and refunded in the primary, settled again from the older row in the standby, two failovers
    const { paid, cancelled, retry, read, cancelledAgain, charges, refunds, journal, merchant } =
      await refundLostToAnOlderState(stack(), new ChaosApi(stack().apiUrl));
    // assess
    expect(paid.status).toBe(201);
    expect(cancelled.body.state).toBe("REFUNDED");
    expect(retry.status, "the standby settled its older copy").toBe(201);
    expect(read.body.state, JSON.stringify(read.body)).toBe("REFUNDED");
    expect(cancelledAgain.body.state).toBe("REFUNDED");
    expect(charges).toEqual([expect.objectContaining({ refunded: true })]);
    expect(refunds).toHaveLength(1);
    expect(legsOf(journal)).toEqual([
      "psp_clearing debit",
      "merchant_payable credit",
      "merchant_payable debit",
      "psp_clearing credit",
    ]);
    expect(merchant).toMatchObject({ balance: 0, credits: 1, debits: 1 });
  }, 180_000);

  it("the failover's lookup of the inherited row sees the refund: REFUNDED in the standby, sale and refund once", async () => {
    // prepare / act: as above, but the PSP answers the failover's resolver, which only looks the old row up
    const { retry, inStandby, read, charges, refunds, journal, merchant } = await refundLostToAnOlderState(
      stack(),
      new ChaosApi(stack().apiUrl),
      false,
    );
    // assess: the charge's answer stands (201) and the payment reads REFUNDED, never SUCCEEDED
    expect(retry.status).toBe(201);
    expect(inStandby.body.state, JSON.stringify(inStandby.body)).toBe("REFUNDED");
    expect(read.body.state).toBe("REFUNDED");
    expect(charges).toEqual([expect.objectContaining({ refunded: true })]);
    expect(refunds).toHaveLength(1);
    expect(journal).toHaveLength(4);
    expect(merchant).toMatchObject({ balance: 0, credits: 1, debits: 1 });
  }, 180_000);
});

const legsOf = (journal: Array<Record<string, unknown>>) =>
  journal.map((leg) => `${String(leg.account).replace(/:.*/, "")} ${String(leg.side)}`);
