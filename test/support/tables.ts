import { DynamoDBClient, ScanCommand } from "@aws-sdk/client-dynamodb";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";

/** Every item of the primary Region's tables, for asserting that a refused request wrote nothing. */
export async function snapshotTables(stack: LocalStack): Promise<Record<string, string[]>> {
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
