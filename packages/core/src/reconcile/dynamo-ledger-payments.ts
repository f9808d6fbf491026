import { type DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import { CHARGE_JOURNAL_SK, REFUND_FAILED_SK, REFUND_JOURNAL_SK } from "../ledger/journal-and-outbox";
import { unsafeRowsLastWriterWins } from "../ledger/ledger-test-switches";
import { DECLINE_FACT_SK, isStateFact, mergeFacts, type StateFact } from "../ledger/state-facts";
import type { PaymentState } from "../payment/payment-state";
import type { LedgerPayment } from "./compare-records";
import type { ReadProgress } from "./reconcile-sources";

/** A payment row or one of its state facts, as the scan projects them. */
type Scanned = Omit<LedgerPayment, "state"> &
  StateFact & { pk: string; state: PaymentState; psp_refund?: string; decline_code?: string };

/**
 * The ledger's payment rows created since `sinceMs`, each as the state facts beside it make it (a row may have lost
 * to a later write of an earlier state from the other Region: `state-facts.ts`). A scan: the ledger has no index by
 * creation time, and this runs once a night; its filter keeps payment rows and their facts (written after their row,
 * so since `sinceMs` too), so locator and outbox items are read, not returned.
 */
export async function ledgerPayments(
  db: DynamoDBDocumentClient,
  table: string,
  sinceMs: number,
  progress: ReadProgress = () => undefined,
): Promise<LedgerPayment[]> {
  const items: Scanned[] = [];
  let rows = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: table,
        FilterExpression:
          "(sk = :payment AND created_at >= :since) OR ((sk IN (:c, :d) OR begins_with(sk, :r) OR begins_with(sk, :f) OR begins_with(sk, :i)) AND #at >= :since)",
        ExpressionAttributeValues: {
          ":payment": "PAYMENT",
          ":since": sinceMs,
          ":c": CHARGE_JOURNAL_SK,
          ":r": REFUND_JOURNAL_SK,
          ":f": REFUND_FAILED_SK,
          ":d": DECLINE_FACT_SK,
          ":i": "FACT#REFUND_",
        },
        ProjectionExpression:
          "pk, sk, payment_id, #s, amount, currency, psp_charge, psp_refund, decline_code, refund_attempt, created_at, caller, order_id",
        ExpressionAttributeNames: { "#s": "state", "#at": "at" },
        ExclusiveStartKey: start,
      }),
    );
    const found = (page.Items ?? []) as Scanned[];
    items.push(...found);
    rows += found.filter((i) => i.sk === "PAYMENT").length;
    progress(rows);
    start = page.LastEvaluatedKey;
  } while (start);
  return merged(items);
}

function merged(items: readonly Scanned[]): LedgerPayment[] {
  const facts = new Map<string, StateFact[]>();
  for (const i of items) if (isStateFact(i.sk)) facts.set(i.pk, [...(facts.get(i.pk) ?? []), i]);
  return items
    .filter((i) => i.sk === "PAYMENT")
    .map((row) => {
      const m = mergeFacts(row, unsafeRowsLastWriterWins() ? [] : (facts.get(row.pk) ?? []));
      const { payment_id, state, amount, currency, psp_charge, created_at } = m;
      const owner = row.caller && row.order_id ? { caller: row.caller, order_id: row.order_id } : {};
      return {
        payment_id,
        state,
        amount,
        currency,
        created_at,
        ...owner,
        ...(psp_charge ? { psp_charge } : {}),
      };
    });
}
