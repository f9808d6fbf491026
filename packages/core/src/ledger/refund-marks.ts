import { type DynamoDBDocumentClient, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import { refundMarkIndexPks } from "./index-shards";
import { padTime, paymentKey } from "./ledger-items";
import { queryShardedIndex } from "./query-sharded-index";
import { inFlightFactOf } from "./refund-in-flight-facts";

/** A refund attempt marked in flight: its payment and the sort key of its pending fact. */
export interface RefundMark {
  payment_id: string;
  sk: string;
  refund_attempt: number;
}

/** The refund attempts marked in flight and due before `beforeMs`, oldest first over every shard, at most `limit`. */
export async function listRefundMarks(
  db: DynamoDBDocumentClient,
  table: string,
  beforeMs: number,
  limit: number,
): Promise<RefundMark[]> {
  const items = await queryShardedIndex(db, { table, keys: refundMarkIndexPks(), beforeMs, limit });
  return items.map((i) => ({
    payment_id: String(i.pk).replace(/^PAY#/, ""),
    sk: String(i.sk),
    refund_attempt: inFlightFactOf(i.sk)?.attempt ?? 1,
  }));
}

/**
 * Takes a pending fact out of the mark's index (the fact itself stays: it is a fact), or with `dueMs` sends it to
 * the back until then, so that marks behind a refund held pending for days get their turn; a fact gone is no error.
 */
export async function updateRefundMark(
  db: DynamoDBDocumentClient,
  table: string,
  mark: { paymentId: string; sk: string; dueMs?: number },
): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: paymentKey(mark.paymentId).pk, sk: mark.sk },
        UpdateExpression: mark.dueMs === undefined ? "REMOVE gsi1pk, gsi1sk" : "SET gsi1sk = :due",
        ConditionExpression:
          mark.dueMs === undefined
            ? "attribute_exists(pk)"
            : "attribute_exists(pk) AND attribute_exists(gsi1pk)",
        ...(mark.dueMs === undefined ? {} : { ExpressionAttributeValues: { ":due": padTime(mark.dueMs) } }),
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
