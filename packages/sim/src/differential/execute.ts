import {
  BatchGetItemCommand,
  BatchWriteItemCommand,
  DeleteItemCommand,
  type DynamoDBClient,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  ScanCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
} from "@aws-sdk/client-dynamodb";
import { indexQueryView } from "./index-order";
import { normalizeError, normalizeReply } from "./normalize";
import type { Op, OpKind, Outcome } from "./op";
import { physicalName } from "./tables";

// biome-ignore lint/suspicious/noExplicitAny: each command takes its own input type; ops are checked JSON
type AnyCommand = new (input: any) => any;

const COMMANDS: Record<OpKind, AnyCommand> = {
  PutItem: PutItemCommand,
  UpdateItem: UpdateItemCommand,
  DeleteItem: DeleteItemCommand,
  GetItem: GetItemCommand,
  Query: QueryCommand,
  Scan: ScanCommand,
  TransactWriteItems: TransactWriteItemsCommand,
  BatchWriteItem: BatchWriteItemCommand,
  BatchGetItem: BatchGetItemCommand,
};

/** Past this many pages a paged read stops: a target that never ends its pages is a disagreement, not a hang. */
const MAX_PAGES = 50;

/** Sends one op to a target under the run's table prefix and answers its normalized outcome. */
export async function executeOp(client: DynamoDBClient, prefix: string, op: Op): Promise<Outcome> {
  const input = withPrefix(prefix, op.input);
  try {
    if (op.kind === "Query" || op.kind === "Scan") {
      const pages = withoutEmptyLastPage(await readAllPages(client, op.kind, input), op.input.Limit);
      const index = op.input.IndexName;
      return {
        ok: typeof index === "string" ? indexQueryView(String(op.input.TableName), index, pages) : { pages },
      };
    }
    const reply = (await client.send(new COMMANDS[op.kind](input))) as unknown as Record<string, unknown>;
    return { ok: normalizeReply(op.kind, reply, prefix) };
  } catch (err) {
    return normalizeError(err);
  }
}

/** Follows LastEvaluatedKey to the end; each page is compared whole (items, counts and the key it ends on). */
async function readAllPages(
  client: DynamoDBClient,
  kind: "Query" | "Scan",
  input: Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const pages: Record<string, unknown>[] = [];
  let start: unknown;
  do {
    const request = new COMMANDS[kind]({ ...input, ...(start ? { ExclusiveStartKey: start } : {}) });
    const reply = (await client.send(request)) as unknown as Record<string, unknown>;
    pages.push(normalizeReply(kind, reply, ""));
    start = reply.LastEvaluatedKey;
  } while (start && pages.length < MAX_PAGES);
  return pages;
}

/**
 * AWS may end a page with a LastEvaluatedKey although nothing follows (its guide: only an absent key means the
 * end), and does so when a Limit is reached exactly; DynamoDB Local looks ahead and leaves the key out. So an empty last
 * page after a page that read exactly Limit items and ended on a key is dropped together with that key: both
 * answers then read "these items, and no more".
 */
export function withoutEmptyLastPage(
  pages: Record<string, unknown>[],
  limit: unknown,
): Record<string, unknown>[] {
  const [before, last] = pages.slice(-2);
  if (!before || !last || last.ScannedCount !== 0 || last.LastEvaluatedKey) return pages;
  if (before.ScannedCount !== limit) return pages;
  const { LastEvaluatedKey: _dropped, ...kept } = before;
  return [...pages.slice(0, -2), kept];
}

/** Puts the run's prefix on every table name of a request (TableName members and RequestItems keys). */
export function withPrefix(prefix: string, input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...input };
  if (typeof out.TableName === "string") out.TableName = physicalName(prefix, out.TableName);
  if (out.RequestItems && typeof out.RequestItems === "object") {
    out.RequestItems = Object.fromEntries(
      Object.entries(out.RequestItems).map(([t, v]) => [physicalName(prefix, t), v]),
    );
  }
  if (Array.isArray(out.TransactItems)) {
    out.TransactItems = out.TransactItems.map((action: Record<string, Record<string, unknown>>) =>
      Object.fromEntries(Object.entries(action).map(([k, body]) => [k, withPrefix(prefix, body)])),
    );
  }
  return out;
}
