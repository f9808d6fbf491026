import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  ScanCommand,
} from "@aws-sdk/lib-dynamodb";
import type { RegionRole } from "../../config/switches";
import { countLedgerIndex } from "../../ledger/count-index";
import { outboxIndexPks, sweepIndexPks } from "../../ledger/index-shards";
import type { RegionSide } from "./region-side";

/** One Region's tables, as the failover script finds them (SST outputs, flags, or the local stack's names). */
export interface RegionTables {
  control: string;
  claims: string;
  ledger: string;
}

/** What differs between AWS and the local stack: health, and how the Region's jobs are run. */
export interface RegionOps {
  health(): Promise<{ ok: boolean; detail: string }>;
  runJob(job: "resolver" | "sweeps", event: Record<string, unknown>): Promise<Record<string, unknown>>;
}

const canaryKey = (id: string) => ({ pk: `CANARY#${id}`, sk: "CANARY" });

/** A Region side on DynamoDB: the canary and the counts are plain data-plane calls. */
export function dynamoSide(
  role: RegionRole,
  region: string,
  db: DynamoDBDocumentClient,
  tables: RegionTables,
  ops: RegionOps,
): RegionSide {
  return {
    role,
    region,
    health: () => ops.health(),
    writeCanary: async (id, at) => {
      await db.send(
        new PutCommand({ TableName: tables.ledger, Item: { ...canaryKey(id), written_at: at, by: role } }),
      );
    },
    hasCanary: async (id) =>
      Boolean(
        (
          await db.send(
            new GetCommand({ TableName: tables.ledger, Key: canaryKey(id), ConsistentRead: true }),
          )
        ).Item,
      ),
    deleteCanary: async (id) => {
      await db
        .send(new DeleteCommand({ TableName: tables.ledger, Key: canaryKey(id) }))
        .catch(ignoreConditional);
    },
    outboxBacklog: () => countLedgerIndex(db, tables.ledger, outboxIndexPks()),
    unknownPayments: () =>
      countLedgerIndex(db, tables.ledger, [...sweepIndexPks("PENDING"), ...sweepIndexPks("UNKNOWN")]),
    openClaims: (now) => countOpenClaims(db, tables.claims, now),
    hasPayment: async (paymentId) =>
      Boolean(
        (
          await db.send(
            new GetCommand({
              TableName: tables.ledger,
              Key: { pk: `PAY#${paymentId}`, sk: "PAYMENT" },
              ConsistentRead: true,
            }),
          )
        ).Item,
      ),
    runResolver: () => ops.runJob("resolver", { source: "failover" }),
    // Re-sending a young outbox item is safe: the same event id meets the queue's dedup and the worker's inbox.
    runSweeps: () => ops.runJob("sweeps", { source: "failover", outbox_older_than_s: 0 }),
  };
}

// The claim table has no index on status; a failover is rare and the table holds about an hour of keys.
async function countOpenClaims(db: DynamoDBDocumentClient, table: string, now: number): Promise<number> {
  let n = 0;
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: "#s = :p AND in_progress_until > :now",
        ExpressionAttributeNames: { "#s": "status" },
        ExpressionAttributeValues: { ":p": "INPROGRESS", ":now": now },
        Select: "COUNT",
        ConsistentRead: true,
        ExclusiveStartKey: start,
      }),
    );
    n += page.Count ?? 0;
    start = page.LastEvaluatedKey;
  } while (start);
  return n;
}

function ignoreConditional(err: unknown): void {
  if (!(err instanceof ConditionalCheckFailedException)) throw err;
}
