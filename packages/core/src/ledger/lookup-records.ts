import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import type { PaymentState } from "../payment/payment-state";
import type { LookupCursor } from "../psp/psp-port";
import { paymentKey } from "./ledger-items";

/**
 * Writes a row's charge sends to `after` on the condition that the row is still in `state` with the sends `before`
 * (absent: none): an update that can never create a row that moved away (the item must be there, in that state),
 * nor drop a send another process recorded meanwhile. False when the condition failed.
 */
export async function writePspSends(
  db: DynamoDBDocumentClient,
  table: string,
  s: { paymentId: string; state: PaymentState; before: number[] | undefined; after: number[] },
): Promise<boolean> {
  const same = s.before === undefined ? "attribute_not_exists(psp_sends)" : "psp_sends = :before";
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: paymentKey(s.paymentId),
        UpdateExpression: "SET psp_sends = :after",
        ConditionExpression: `#state = :state AND ${same}`,
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: {
          ":state": s.state,
          ":after": s.after,
          ...(s.before === undefined ? {} : { ":before": s.before }),
        },
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}

/** Keeps (or, with undefined, removes) where a lookup stopped, while the row is still in `state`; never creates one. */
export async function writeLookupCursor(
  db: DynamoDBDocumentClient,
  table: string,
  paymentId: string,
  state: PaymentState,
  cursor: LookupCursor | undefined,
): Promise<void> {
  try {
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: paymentKey(paymentId),
        UpdateExpression: cursor ? "SET lookup_cursor = :c" : "REMOVE lookup_cursor",
        ConditionExpression: "#state = :state",
        ExpressionAttributeNames: { "#state": "state" },
        ExpressionAttributeValues: { ":state": state, ...(cursor ? { ":c": cursor } : {}) },
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
