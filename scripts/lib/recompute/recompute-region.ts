import {
  ChangeMessageVisibilityCommand,
  DeleteMessageCommand,
  type Message,
  ReceiveMessageCommand,
  type SQSClient,
} from "@aws-sdk/client-sqs";
import { type DynamoDBDocumentClient, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import {
  type PaymentOfEvent,
  parseSkippedBatch,
  paymentKey,
  planRecompute,
  type RecomputedTotal,
  recomputedTotalItem,
} from "@eo/core";

/** One Region's failure queue, its totals table and its ledger replica. */
export interface RecomputeRegion {
  role: string;
  sqs: SQSClient;
  db: DynamoDBDocumentClient;
  queueUrl: string;
  totalsTable: string;
  ledgerTable: string;
  dryRun: boolean;
  max: number;
  log: (line: string) => void;
}

/** What a Region's run did; each message left on its queue is listed with its reason. */
export interface RecomputeSummary {
  examined: number;
  recomputed: number;
  events: number;
  totals: RecomputedTotal[];
  left: Array<{ messageId: string; reason: string }>;
}

/** Long enough for a page of ten batches' lookups and writes; what is left is made visible again at the end. */
const HOLD_S = 300;

/**
 * Recomputes every batch on one Region's stream-job failure queue: checked against the ledger, added to the totals
 * under the batch's own key (so a second run writes the same), then deleted. A batch the ledger does not confirm, or a
 * message that is not a batch, is left on the queue; a dry run writes and deletes nothing.
 */
export async function recomputeRegion(o: RecomputeRegion): Promise<RecomputeSummary> {
  const s: RecomputeSummary = { examined: 0, recomputed: 0, events: 0, totals: [], left: [] };
  const held: Message[] = [];
  try {
    while (s.examined < o.max) {
      const page = await receive(o, Math.min(10, o.max - s.examined));
      if (page.length === 0) break;
      for (const m of page) {
        s.examined += 1;
        const done = await recomputeOne(o, m, s);
        if (!done) held.push(m);
      }
    }
  } finally {
    // Left (or only looked at): visible again now, for the next run or a person.
    for (const m of held)
      await o.sqs
        .send(
          new ChangeMessageVisibilityCommand({
            QueueUrl: o.queueUrl,
            ReceiptHandle: m.ReceiptHandle,
            VisibilityTimeout: 0,
          }),
        )
        .catch(() => undefined);
  }
  return s;
}

/** One message: answers true once it is recomputed and deleted. */
async function recomputeOne(o: RecomputeRegion, m: Message, s: RecomputeSummary): Promise<boolean> {
  const id = m.MessageId ?? "(no id)";
  const parsed = parseSkippedBatch(m.Body ?? "");
  if (!parsed.ok) {
    s.left.push({ messageId: id, reason: parsed.reason });
    o.log(`  ${o.role} ${id}: LEFT: ${parsed.reason}`);
    return false;
  }
  const plan = await planRecompute(parsed.batch, (paymentId) => paymentOf(o, paymentId));
  if (!plan.ok) {
    s.left.push({ messageId: id, reason: plan.reason });
    o.log(`  ${o.role} ${id}: LEFT (UNSAFE): ${plan.reason}`);
    return false;
  }
  const sums = plan.totals
    .map((t) => `${t.merchant} ${t.day} ${t.total >= 0 ? "+" : ""}${t.total}`)
    .join(", ");
  const what = `${plan.events} event(s) of window ${parsed.batch.window} (${parsed.batch.error})`;
  if (o.dryRun) {
    o.log(`  ${o.role} ${id}: would add ${what}: ${sums || "nothing to add"}`);
    s.totals.push(...plan.totals);
    s.events += plan.events;
    return false;
  }
  // Only a Put (the on-call policy grants the totals table nothing else): the same item however often this runs.
  for (const t of plan.totals)
    await o.db.send(
      new PutCommand({
        TableName: o.totalsTable,
        Item: recomputedTotalItem(t.merchant, t.day, plan.id, t.total),
      }),
    );
  await o.sqs.send(new DeleteMessageCommand({ QueueUrl: o.queueUrl, ReceiptHandle: m.ReceiptHandle }));
  o.log(`  ${o.role} ${id}: added ${what}: ${sums || "nothing to add"}`);
  s.recomputed += 1;
  s.events += plan.events;
  s.totals.push(...plan.totals);
  return true;
}

async function receive(o: RecomputeRegion, n: number): Promise<Message[]> {
  const out = await o.sqs.send(
    new ReceiveMessageCommand({ QueueUrl: o.queueUrl, MaxNumberOfMessages: n, VisibilityTimeout: HOLD_S }),
  );
  return out.Messages ?? [];
}

async function paymentOf(o: RecomputeRegion, paymentId: string): Promise<PaymentOfEvent | undefined> {
  const out = await o.db.send(
    new GetCommand({ TableName: o.ledgerTable, Key: paymentKey(paymentId), ConsistentRead: true }),
  );
  return out.Item as PaymentOfEvent | undefined;
}
