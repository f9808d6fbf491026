import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import { paymentKey } from "./ledger-items";

/** The sort key, in the payment's partition, of what a resolve found at the PSP for a key with no final row here. */
export const FOUND_AT_PSP_SK = "FOUND#PSP";

/**
 * A charge or a decline a lookup found at the PSP by our reference for a payment this Region holds no final row of
 * (the key came from a failed Region). A lookup that lags can miss a charge the lookup before it found (an index read
 * from a replica further behind), so what one resolve answered from the PSP is kept here, once, and every later
 * resolve of the key answers it instead of a lagging "not found" (seed 99's schedule 351: SUCCEEDED, then PROCESSING).
 * It is not a state fact: it proves the outcome, not the amount, so it never settles a row; the row comes with the old
 * Region's recovery or the app's retry of the same key.
 */
export interface FoundAtPsp {
  state: "SUCCEEDED" | "FAILED";
  psp_charge?: string;
  decline_code?: string;
  at: number;
}

/** What a resolve found at the PSP for `paymentId` and kept, read strongly consistent. */
export async function readFoundAtPsp(
  db: DynamoDBDocumentClient,
  table: string,
  paymentId: string,
): Promise<FoundAtPsp | undefined> {
  const out = await db.send(
    new GetCommand({
      TableName: table,
      Key: { pk: paymentKey(paymentId).pk, sk: FOUND_AT_PSP_SK },
      ConsistentRead: true,
    }),
  );
  if (!out.Item) return undefined;
  const { state, psp_charge, decline_code, at } = out.Item as FoundAtPsp;
  return { state, at, ...(psp_charge ? { psp_charge } : {}), ...(decline_code ? { decline_code } : {}) };
}

/** Keeps what a resolve found at the PSP, only if nothing is kept yet (the first finding stands, as a fact does). */
export async function putFoundAtPsp(
  db: DynamoDBDocumentClient,
  table: string,
  paymentId: string,
  found: FoundAtPsp,
): Promise<void> {
  try {
    await db.send(
      new PutCommand({
        TableName: table,
        Item: { pk: paymentKey(paymentId).pk, sk: FOUND_AT_PSP_SK, ...found },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
  } catch (err) {
    if (!isConditionFailure(err)) throw err;
  }
}
