import { afterEach, describe, expect, it } from "vitest";
import { useLocalStack } from "../support/local-stack";
import { refundJournalArrivesAfterRowWrite } from "./support/refund-lost-to-later-write";

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_REFUND_CATCH_UP;
});

describe("a REFUNDED row lost to a later write in the other Region (Part 9, found by the fault checker)", () => {
  const stack = useLocalStack();

  it("the relay catches the row up when the refund's journal entry arrives: REFUNDED, balanced, debited once", async () => {
    // act
    const { paid, row, journal, merchantView } = await refundJournalArrivesAfterRowWrite(stack());
    // assess
    expect(paid.status).toBe(201);
    expect(row?.state).toBe("REFUNDED");
    expect(journal).toHaveLength(4);
    expect(merchantView.balance).toBe(0);
  }, 60_000);

  it("counterfactual: without the catch-up the row reads SUCCEEDED for ever, though the PSP refunded", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_NO_REFUND_CATCH_UP = "1";
    // act
    const { row, journal, merchantView } = await refundJournalArrivesAfterRowWrite(stack());
    // assess
    expect(row?.state).toBe("SUCCEEDED");
    expect(journal).toHaveLength(4);
    expect(merchantView.balance).toBe(6_300);
  }, 60_000);
});
