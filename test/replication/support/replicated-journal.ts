import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import { tablesOf } from "../../support/ledger-reads";

/** One journal leg as the other Region's transaction wrote it: its number, account and side. */
export type JournalLeg = readonly [number, string, "debit" | "credit"];

/**
 * Writes journal legs of a payment into the primary's ledger, as replication delivers the other Region's: legs 1
 * and 2 are the charge's entry (`JOURNAL#1`), legs 3 and 4 the refund's (`JOURNAL#3`), one item per entry.
 */
export async function putJournalLegs(
  stack: LocalStack,
  paymentId: string,
  amount: number,
  legs: readonly JournalLeg[],
): Promise<void> {
  const { db } = tablesOf(stack);
  for (const sk of ["JOURNAL#1", "JOURNAL#3"]) {
    const mine = legs.filter(([n]) => (n <= 2 ? "JOURNAL#1" : "JOURNAL#3") === sk);
    if (mine.length === 0) continue;
    await db.send(
      new PutCommand({
        TableName: stack.emulators.regions.primary.ledgerTable,
        Item: {
          pk: `PAY#${paymentId}`,
          sk,
          legs: mine.map(([, account, side]) => ({ account, side, amount })),
          currency: "USD",
          at: 1,
        },
      }),
    );
  }
}
