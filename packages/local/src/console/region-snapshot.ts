import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { type DynamoDBDocumentClient, ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { RegionRole } from "@eo/core";
import { regionDocumentClient } from "../region/control-table";
import { LOCAL_CREDENTIALS } from "../stack/regions";
import type { Emulators } from "../stack/start-emulators";

/** What one Region's own copy of the tables and its queues say now. */
export interface RegionSnapshot {
  /** Payments in this Region's ledger copy, by state. */
  payments: Record<string, number>;
  unknown: { count: number; oldest_age_s: number | null };
  /** Payments the PSP charged although we answered FAILED (the PaymentAnomalies alarm's local reading). */
  anomalies: number;
  /** Payments whose refund the PSP failed after accepting it (the RefundFailedLater alarm's local reading). */
  refunds_failed_later?: number;
  /** Notification intents the provider refused for good (FAILED marks in this Region's consumer table). */
  notifications_failed: number;
  queues: { events: number | null; dlq: number | null; relay_failures: number | null };
}

const UNSETTLED = new Set(["UNKNOWN", "REFUND_UNKNOWN"]);

/**
 * Reads one Region's ledger and consumer tables and its queues' depths. A scan is fine here: the local tables
 * hold a few thousand rows at most, and the console asks every few seconds, not per request.
 */
export async function readRegionSnapshot(
  emulators: Emulators,
  role: RegionRole,
  nowMs: number,
): Promise<RegionSnapshot> {
  const db = regionDocumentClient(emulators, role);
  const r = emulators.regions[role];
  const [rows, marks, queues] = await Promise.all([
    scanAll(db, r.ledgerTable, "sk = :s", { ":s": "PAYMENT" }),
    scanAll(db, r.consumerTable, "begins_with(sk, :m) AND #st = :f", { ":m": "MARK#", ":f": "FAILED" }),
    queueDepths(emulators, role),
  ]);
  const payments: Record<string, number> = {};
  let oldest: number | undefined;
  let unknown = 0;
  for (const row of rows) {
    const state = String(row.state);
    payments[state] = (payments[state] ?? 0) + 1;
    if (!UNSETTLED.has(state)) continue;
    unknown++;
    // From creation, as the buyer waits: the age the resolver's UnknownOldestAgeS metric reports.
    const since = Number(row.created_at);
    if (oldest === undefined || since < oldest) oldest = since;
  }
  return {
    payments,
    unknown: { count: unknown, oldest_age_s: oldest === undefined ? null : ageS(nowMs, oldest) },
    anomalies: rows.filter((row) => row.anomaly && kindOf(row) !== "refund-failed-later").length,
    refunds_failed_later: rows.filter((row) => kindOf(row) === "refund-failed-later").length,
    notifications_failed: marks.length,
    queues,
  };
}

const kindOf = (row: Record<string, unknown>): unknown =>
  (row.anomaly as { kind?: unknown } | undefined)?.kind;

const ageS = (nowMs: number, sinceMs: number) => Math.max(0, Math.round((nowMs - sinceMs) / 1000));

async function scanAll(
  db: DynamoDBDocumentClient,
  table: string,
  filter: string,
  values: Record<string, unknown>,
): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: filter,
        ExpressionAttributeValues: values,
        ...(filter.includes("#st") ? { ExpressionAttributeNames: { "#st": "state" } } : {}),
        ExclusiveStartKey: start,
      }),
    );
    items.push(...((page.Items ?? []) as Array<Record<string, unknown>>));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

const clients = new Map<string, SQSClient>();

// Depths only: fauxqs answers ApproximateNumberOfMessages; a queue it cannot read shows as null, not as 0.
async function queueDepths(emulators: Emulators, role: RegionRole): Promise<RegionSnapshot["queues"]> {
  const r = emulators.regions[role];
  const key = `${emulators.endpoints.sqs} ${r.region}`;
  const sqs =
    clients.get(key) ??
    new SQSClient({ endpoint: emulators.endpoints.sqs, region: r.region, credentials: LOCAL_CREDENTIALS });
  clients.set(key, sqs);
  const depth = async (url: string) => {
    try {
      const a = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: url,
          AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        }),
      );
      return (
        Number(a.Attributes?.ApproximateNumberOfMessages ?? 0) +
        Number(a.Attributes?.ApproximateNumberOfMessagesNotVisible ?? 0)
      );
    } catch {
      return null;
    }
  };
  const [events, dlq, relay] = await Promise.all([
    depth(r.queues.events),
    depth(r.queues.eventsDlq),
    depth(r.queues.relayFailures),
  ]);
  return { events, dlq, relay_failures: relay };
}
