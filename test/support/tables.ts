import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { countLedgerIndex, outboxIndexPks } from "@eo/core";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";

/** Every item of the primary Region's tables, for asserting that a refused request wrote nothing. */
export async function snapshotTables(stack: LocalStack): Promise<Record<string, string[]>> {
  await asyncQuiet(stack);
  const r = stack.emulators.regions.primary;
  const db = new DynamoDBClient({
    endpoint: stack.emulators.endpoints.dynamodb,
    region: r.region,
    credentials: LOCAL_CREDENTIALS,
  });
  const out: Record<string, string[]> = {};
  for (const table of [r.claimTable, r.ledgerTable, r.consumerTable]) {
    const items: string[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await db.send(
        new ScanCommand({ TableName: table, ExclusiveStartKey: start as never, ConsistentRead: true }),
      );
      items.push(...(page.Items ?? []).map((i) => JSON.stringify(i)));
      start = page.LastEvaluatedKey;
    } while (start);
    out[table] = items.sort();
  }
  db.destroy();
  return out;
}

/** Polls until `check` answers a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => Promise<T | undefined>,
  timeoutMs = 10_000,
  what = "condition",
): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Waits until the asynchronous half has nothing left to do (no PSP webhook on its way, no outbox
 * item, no message in the events queue), so that a snapshot sees only what the request under test wrote.
 */
export async function asyncQuiet(stack: LocalStack, timeoutMs = 15_000): Promise<void> {
  const r = stack.emulators.regions.primary;
  const where = {
    endpoint: stack.emulators.endpoints.dynamodb,
    region: r.region,
    credentials: LOCAL_CREDENTIALS,
  };
  const db = new DynamoDBClient(where);
  const sqs = new SQSClient({ ...where, endpoint: stack.emulators.endpoints.sqs });
  const docs = DynamoDBDocumentClient.from(db);
  try {
    for (const until = Date.now() + timeoutMs; ; ) {
      const outbox = await countLedgerIndex(docs, r.ledgerTable, outboxIndexPks());
      const { Attributes: q } = await sqs.send(
        new GetQueueAttributesCommand({
          QueueUrl: r.queues.events,
          AttributeNames: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
        }),
      );
      const queued =
        Number(q?.ApproximateNumberOfMessages ?? 0) + Number(q?.ApproximateNumberOfMessagesNotVisible ?? 0);
      if (outbox === 0 && queued === 0 && stack.psp.webhooksPending() === 0) return;
      if (Date.now() > until) throw new Error("the async path did not settle");
      await new Promise((res) => setTimeout(res, 50));
    }
  } finally {
    db.destroy();
    sqs.destroy();
  }
}
