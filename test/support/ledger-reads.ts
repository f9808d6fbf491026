import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient, GetCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import type { ClaimItem } from "../../packages/core/src/claim/claim-answer";
import type { PaymentRow } from "../../packages/core/src/ledger/ledger-items";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";

/** Direct reads of the primary Region's tables, for assertions on what the system stored. */
export function tablesOf(stack: LocalStack) {
  const r = stack.emulators.regions.primary;
  const db = DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: stack.emulators.endpoints.dynamodb,
      region: r.region,
      credentials: LOCAL_CREDENTIALS,
    }),
  );
  return {
    db,
    async payment(paymentId: string): Promise<PaymentRow | undefined> {
      const out = await db.send(
        new GetCommand({ TableName: r.ledgerTable, Key: { pk: `PAY#${paymentId}`, sk: "PAYMENT" } }),
      );
      return out.Item as PaymentRow | undefined;
    },
    /** The journal's legs of a payment, flattened from its entries. */
    async journal(paymentId: string): Promise<Array<Record<string, unknown>>> {
      const out = await db.send(
        new QueryCommand({
          TableName: r.ledgerTable,
          KeyConditionExpression: "pk = :pk AND begins_with(sk, :j)",
          ExpressionAttributeValues: { ":pk": `PAY#${paymentId}`, ":j": "JOURNAL#" },
        }),
      );
      // One item per balanced entry, its legs inside it: each leg is answered with its entry's currency and time.
      return (out.Items ?? []).flatMap((entry) =>
        ((entry.legs ?? []) as Array<Record<string, unknown>>).map((leg) => ({
          ...leg,
          sk: entry.sk,
          currency: entry.currency,
          at: entry.at,
        })),
      );
    },
    async claim(scope: string): Promise<ClaimItem | undefined> {
      const out = await db.send(new GetCommand({ TableName: r.claimTable, Key: { id: scope } }));
      const item = out.Item as (ClaimItem & { data?: unknown }) | undefined;
      return item && typeof item.data === "string" ? { ...item, data: JSON.parse(item.data) } : item;
    },
  };
}
