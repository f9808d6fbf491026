import { PutCommand } from "@aws-sdk/lib-dynamodb";
import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import { tablesOf } from "../../support/ledger-reads";

/** One journal leg as the other Region's transaction wrote it: its number, account and side. */
export type JournalLeg = readonly [number, string, "debit" | "credit"];

/** Writes journal legs of a payment into the primary's ledger, as replication delivers the other Region's. */
export async function putJournalLegs(
  stack: LocalStack,
  paymentId: string,
  amount: number,
  legs: readonly JournalLeg[],
): Promise<void> {
  const { db } = tablesOf(stack);
  for (const [n, account, side] of legs)
    await db.send(
      new PutCommand({
        TableName: stack.emulators.regions.primary.ledgerTable,
        Item: { pk: `PAY#${paymentId}`, sk: `JOURNAL#${n}`, account, side, amount, currency: "USD", at: 1 },
      }),
    );
}
