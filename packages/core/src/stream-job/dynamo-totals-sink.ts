import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { BatchWriteCommand, PutCommand, QueryCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { splitTotalKey, type WindowCarry } from "./job-state";
import type { DayTotal, TaggedKey, TotalsSink } from "./totals-sink";

/** The sparse index on the barrier tag: `bpk` = shard#window, `btag` = the tag; only open windows' keys carry them. */
export const TAG_INDEX = "tags";

const totalPk = (merchant: string) => `TOTAL#${merchant}`;
const totalSk = (day: string, window: string, shard: string) => `${day}#${window}#${shard}`;
const barrierPk = (shard: string, window: string) => `${shard}#${window}`;

/**
 * The sink item of a given-up batch's total for a merchant's day: under the batch's own key, outside every window and
 * the tag index, so that no flush touches it and `totalsOf` adds it to the day.
 */
export function recomputedTotalItem(merchant: string, day: string, batchId: string, total: number) {
  return { pk: totalPk(merchant), sk: `${day}#recompute#${batchId}`, merchant, day, total, tag: 0 };
}

/** The sink on one DynamoDB table (pk/sk, sparse GSI `tags` on bpk/btag). */
export class DynamoTotalsSink implements TotalsSink {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async setTotals(shard: string, window: string, totals: ReadonlyArray<[string, number]>, tag: number) {
    // One absolute Put per key: writing the same total twice is harmless, so no condition and no transaction.
    for (const [key, total] of totals) {
      const { merchant, day } = splitTotalKey(key);
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: {
            pk: totalPk(merchant),
            sk: totalSk(day, window, shard),
            merchant,
            day,
            total,
            tag,
            bpk: barrierPk(shard, window),
            btag: tag,
          },
        }),
      );
    }
  }

  async taggedSince(shard: string, window: string, tag: number): Promise<TaggedKey[]> {
    const items = await this.queryAll({
      IndexName: TAG_INDEX,
      KeyConditionExpression: "bpk = :b AND btag >= :t",
      ExpressionAttributeValues: { ":b": barrierPk(shard, window), ":t": tag },
    });
    return items.map((i) => ({ key: `${i.merchant}|${i.day}`, tag: Number(i.btag) }));
  }

  async deleteTotals(shard: string, window: string, keys: readonly string[]) {
    for (let i = 0; i < keys.length; i += 25) {
      const requests = keys.slice(i, i + 25).map((key) => {
        const { merchant, day } = splitTotalKey(key);
        return { DeleteRequest: { Key: { pk: totalPk(merchant), sk: totalSk(day, window, shard) } } };
      });
      await this.db.send(new BatchWriteCommand({ RequestItems: { [this.table]: requests } }));
    }
  }

  async closeWindow(shard: string, window: string, carry: WindowCarry) {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: { pk: `CARRY#${shard}`, sk: window, carry: JSON.stringify(carry) },
      }),
    );
    // A window cut short by the state limit goes on: its keys stay listed for a flush.
    if (carry.window === window) return;
    const open = await this.queryAll({
      IndexName: TAG_INDEX,
      KeyConditionExpression: "bpk = :b",
      ExpressionAttributeValues: { ":b": barrierPk(shard, window) },
    });
    for (const i of open)
      await this.db
        .send(
          new UpdateCommand({
            TableName: this.table,
            Key: { pk: i.pk, sk: i.sk },
            UpdateExpression: "REMOVE bpk, btag",
            ConditionExpression: "attribute_exists(pk)",
          }),
        )
        .catch((err: Error) => {
          if (err.name !== "ConditionalCheckFailedException") throw err;
        });
  }

  async carryBefore(shard: string, window: string): Promise<WindowCarry | undefined> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        // At or before: a window cut short by the state limit goes on from its own carry.
        KeyConditionExpression: "pk = :pk AND sk <= :w",
        ExpressionAttributeValues: { ":pk": `CARRY#${shard}`, ":w": window },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const raw = out.Items?.[0]?.carry;
    return typeof raw === "string" ? (JSON.parse(raw) as WindowCarry) : undefined;
  }

  async totalsOf(merchant: string): Promise<DayTotal[]> {
    const items = await this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": totalPk(merchant) },
      ConsistentRead: true,
    });
    const days = new Map<string, DayTotal>();
    for (const i of items) {
      const d = days.get(String(i.day)) ?? { day: String(i.day), total: 0, tag: 0 };
      d.total += Number(i.total);
      d.tag = Math.max(d.tag, Number(i.tag));
      days.set(d.day, d);
    }
    return [...days.values()].sort((a, b) => a.day.localeCompare(b.day));
  }

  async outsideSeen(shard: string): Promise<Set<string>> {
    const items = await this.queryAll({
      KeyConditionExpression: "pk = :pk",
      ExpressionAttributeValues: { ":pk": `SEEN#${shard}` },
    });
    return new Set(items.map((i) => String(i.sk)));
  }

  async rememberOutside(shard: string, ids: readonly string[]) {
    for (const id of ids)
      await this.db.send(new PutCommand({ TableName: this.table, Item: { pk: `SEEN#${shard}`, sk: id } }));
  }

  private async queryAll(q: Omit<ConstructorParameters<typeof QueryCommand>[0], "TableName">) {
    const items: Array<Record<string, unknown>> = [];
    let start: Record<string, unknown> | undefined;
    do {
      const out = await this.db.send(
        new QueryCommand({ ...q, TableName: this.table, ExclusiveStartKey: start }),
      );
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }
}
