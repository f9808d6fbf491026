import { ConditionalCheckFailedException } from "@aws-sdk/client-dynamodb";
import {
  DeleteCommand,
  type DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
} from "@aws-sdk/lib-dynamodb";
import type { RegionRole } from "../../config/switches";
import { countLedgerIndex } from "../../ledger/count-index";
import { outboxIndexPks, sweepIndexPks } from "../../ledger/index-shards";
import { type PaymentRow, paymentKey } from "../../ledger/ledger-items";
import { unsafeRowsLastWriterWins } from "../../ledger/ledger-test-switches";
import { isStateFact, mergeFacts, type StateFact } from "../../ledger/state-facts";
import type { VerifiedRow } from "./judge-charge";
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
    payment: (paymentId) => readMerged(db, tables.ledger, paymentId),
    runResolver: () => ops.runJob("resolver", { source: "failover" }),
    // Re-sending a young outbox item is safe: the same event id meets the queue's dedup and the worker's inbox.
    runSweeps: () => ops.runJob("sweeps", { source: "failover", outbox_older_than_s: 0 }),
  };
}

// The row as its state facts make it (one strongly consistent query of its partition): a later write of an earlier
// state from the other Region (last writer wins) must not hide a state a fact proves.
async function readMerged(
  db: DynamoDBDocumentClient,
  table: string,
  paymentId: string,
): Promise<VerifiedRow | undefined> {
  const out = await db.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": paymentKey(paymentId).pk },
      ConsistentRead: true,
    }),
  );
  const items = (out.Items ?? []) as Array<Record<string, unknown>>;
  const row = items.find((i) => i.sk === paymentKey(paymentId).sk) as unknown as PaymentRow | undefined;
  if (!row) return undefined;
  const facts = unsafeRowsLastWriterWins()
    ? []
    : (items.filter((i) => isStateFact(i.sk)) as unknown as StateFact[]);
  const { state, amount, currency } = mergeFacts(row, facts);
  return { state, amount: Number(amount), currency: String(currency) };
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
