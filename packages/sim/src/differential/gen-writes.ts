import fc from "fast-check";
import { condArb, renderCondition } from "./gen-conditions";
import { renderUpdate, updateArb } from "./gen-updates";
import { itemArb, keyArb, tableArb } from "./gen-values";
import type { Op } from "./op";
import { RenderContext } from "./render";
import type { TableName } from "./tables";

const onFailure = fc.constantFrom(undefined, "ALL_OLD", "NONE");

/** An optional condition: the code guards most writes, so most generated writes carry one. */
function maybeCondition(table: TableName) {
  return fc.option(condArb(table), { freq: 3, nil: undefined });
}

/** PutItem, as the code writes puts: whole items, mostly guarded (`attribute_not_exists(pk)`, version compares). */
export const putItemArb: fc.Arbitrary<Op> = tableArb.chain((table) =>
  fc
    .record({
      item: itemArb(table),
      cond: maybeCondition(table),
      rv: fc.constantFrom(undefined, "NONE", "ALL_OLD"),
      rvf: onFailure,
    })
    .map(({ item, cond, rv, rvf }): Op => {
      const ctx = new RenderContext();
      const expr = cond ? renderCondition(cond, ctx) : undefined;
      return {
        kind: "PutItem",
        input: clean({
          TableName: table,
          Item: item,
          ConditionExpression: expr,
          ...ctx.maps(),
          ReturnValues: rv,
          ReturnValuesOnConditionCheckFailure: expr ? rvf : undefined,
        }),
      };
    }),
);

/** UpdateItem with every clause kind, an optional condition and every ReturnValues choice. */
export const updateItemArb: fc.Arbitrary<Op> = tableArb.chain((table) =>
  fc
    .record({
      key: keyArb(table),
      update: updateArb(table),
      cond: maybeCondition(table),
      rv: fc.constantFrom(undefined, "NONE", "ALL_OLD", "UPDATED_OLD", "ALL_NEW", "UPDATED_NEW"),
      rvf: onFailure,
    })
    .map(({ key, update, cond, rv, rvf }): Op => {
      const ctx = new RenderContext();
      const updateExpr = renderUpdate(update, ctx);
      const expr = cond ? renderCondition(cond, ctx) : undefined;
      return {
        kind: "UpdateItem",
        input: clean({
          TableName: table,
          Key: key,
          UpdateExpression: updateExpr,
          ConditionExpression: expr,
          ...ctx.maps(),
          ReturnValues: rv,
          ReturnValuesOnConditionCheckFailure: expr ? rvf : undefined,
        }),
      };
    }),
);

/** DeleteItem, guarded or not (`attribute_exists(pk)`, `#owner = :me`). */
export const deleteItemArb: fc.Arbitrary<Op> = tableArb.chain((table) =>
  fc
    .record({
      key: keyArb(table),
      cond: maybeCondition(table),
      rv: fc.constantFrom(undefined, "ALL_OLD"),
      rvf: onFailure,
    })
    .map(({ key, cond, rv, rvf }): Op => {
      const ctx = new RenderContext();
      const expr = cond ? renderCondition(cond, ctx) : undefined;
      return {
        kind: "DeleteItem",
        input: clean({
          TableName: table,
          Key: key,
          ConditionExpression: expr,
          ...ctx.maps(),
          ReturnValues: rv,
          ReturnValuesOnConditionCheckFailure: expr ? rvf : undefined,
        }),
      };
    }),
);

/** Drops the members left undefined, so the JSON of a kept case holds only what was sent. */
export function clean(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
}
