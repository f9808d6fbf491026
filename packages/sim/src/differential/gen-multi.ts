import fc from "fast-check";
import { condArb, renderCondition } from "./gen-conditions";
import { renderUpdate, updateArb } from "./gen-updates";
import { itemArb, keyArb, tableArb } from "./gen-values";
import { clean } from "./gen-writes";
import type { Op } from "./op";
import { RenderContext } from "./render";
import type { TableName } from "./tables";

const rvf = fc.constantFrom(undefined, "ALL_OLD", "NONE");

/** One action of a transaction; conditions are frequent so that cancellations (and their reasons) are common. */
function transactActionArb(table: TableName): fc.Arbitrary<Record<string, unknown>> {
  const cond = fc.option(condArb(table), { freq: 2, nil: undefined });
  return fc.oneof(
    fc.record({ item: itemArb(table), cond, rvf }).map(({ item, cond: c, rvf: r }) => {
      const ctx = new RenderContext();
      const expr = c ? renderCondition(c, ctx) : undefined;
      return { Put: action(table, { Item: item }, expr, ctx, r) };
    }),
    fc
      .record({ key: keyArb(table), update: updateArb(table), cond, rvf })
      .map(({ key, update, cond: c, rvf: r }) => {
        const ctx = new RenderContext();
        const u = renderUpdate(update, ctx);
        const expr = c ? renderCondition(c, ctx) : undefined;
        return { Update: action(table, { Key: key, UpdateExpression: u }, expr, ctx, r) };
      }),
    fc.record({ key: keyArb(table), cond, rvf }).map(({ key, cond: c, rvf: r }) => {
      const ctx = new RenderContext();
      const expr = c ? renderCondition(c, ctx) : undefined;
      return { Delete: action(table, { Key: key }, expr, ctx, r) };
    }),
    fc.record({ key: keyArb(table), cond: condArb(table), rvf }).map(({ key, cond: c, rvf: r }) => {
      const ctx = new RenderContext();
      const expr = renderCondition(c, ctx);
      return { ConditionCheck: action(table, { Key: key }, expr, ctx, r) };
    }),
  );
}

function action(
  table: TableName,
  body: Record<string, unknown>,
  expr: string | undefined,
  ctx: RenderContext,
  onFailure: string | undefined,
): Record<string, unknown> {
  return clean({
    TableName: table,
    ...body,
    ConditionExpression: expr,
    ...ctx.maps(),
    ReturnValuesOnConditionCheckFailure: expr ? onFailure : undefined,
  });
}

/**
 * TransactWriteItems of one to four actions on the small key space: two actions on one item (refused as a whole)
 * come up by themselves, and failing conditions cancel with per-action reasons.
 */
export const transactWriteArb: fc.Arbitrary<Op> = fc
  .array(tableArb.chain(transactActionArb), { minLength: 1, maxLength: 4 })
  .map((items): Op => ({ kind: "TransactWriteItems", input: { TransactItems: items } }));

/** BatchWriteItem of puts and deletes over the tables (a key twice in one batch is refused). */
export const batchWriteArb: fc.Arbitrary<Op> = fc
  .array(
    tableArb.chain((table) =>
      fc.oneof(
        itemArb(table).map((Item) => [table, { PutRequest: { Item } }] as const),
        keyArb(table).map((Key) => [table, { DeleteRequest: { Key } }] as const),
      ),
    ),
    { minLength: 1, maxLength: 4 },
  )
  .map((requests): Op => {
    const byTable: Record<string, unknown[]> = {};
    for (const [table, request] of requests) byTable[table] = [...(byTable[table] ?? []), request];
    return { kind: "BatchWriteItem", input: { RequestItems: byTable } };
  });
