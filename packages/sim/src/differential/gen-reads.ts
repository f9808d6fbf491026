import fc from "fast-check";
import { condArb, renderCondition } from "./gen-conditions";
import { BARE_SAFE, pathArb } from "./gen-paths";
import { keyArb, tableArb } from "./gen-values";
import { clean } from "./gen-writes";
import type { AV, Op } from "./op";
import { type Path, RenderContext } from "./render";
import { TABLES, type TableName } from "./tables";

function projectionArb(table: TableName) {
  return fc.option(fc.uniqueArray(pathArb(table, true), { minLength: 1, maxLength: 3 }), {
    freq: 2,
    nil: undefined,
  });
}

function renderProjection(paths: Path[] | undefined, ctx: RenderContext): string | undefined {
  return paths?.map((p) => ctx.path(p, BARE_SAFE.has(String(p[0])))).join(", ");
}

/** GetItem, strongly consistent or not, with a projection of top-level and nested paths. */
export const getItemArb: fc.Arbitrary<Op> = tableArb.chain((table) =>
  fc
    .record({
      key: keyArb(table),
      projection: projectionArb(table),
      consistent: fc.constantFrom(undefined, true),
    })
    .map(({ key, projection, consistent }): Op => {
      const ctx = new RenderContext();
      const expr = renderProjection(projection, ctx);
      return {
        kind: "GetItem",
        input: clean({
          TableName: table,
          Key: key,
          ProjectionExpression: expr,
          ConsistentRead: consistent,
          ...ctx.maps(),
        }),
      };
    }),
);

interface KeySpace {
  index?: string;
  hash: string;
  range?: string;
  hashValues: string[];
  rangeValues: AV[];
  prefixes: string[];
}

/** The key conditions a query can use on each table and index, with values from the same small key spaces. */
const KEY_SPACES: Record<TableName, KeySpace[]> = {
  ledger: [
    {
      hash: "pk",
      range: "sk",
      hashValues: ["P0", "P1"],
      rangeValues: [{ S: "OUT#1" }, { S: "PAYMENT" }],
      prefixes: ["OUT#", "P"],
    },
    {
      index: "gsi1",
      hash: "gsi1pk",
      range: "gsi1sk",
      hashValues: ["G1", "G2"],
      rangeValues: [{ S: "2024-02" }],
      prefixes: ["2024-0"],
    },
  ],
  totals: [
    { hash: "pk", range: "sk", hashValues: ["T0", "T1"], rangeValues: [{ S: "w2" }], prefixes: ["w"] },
    {
      index: "tags",
      hash: "bpk",
      range: "btag",
      hashValues: ["B1", "B2"],
      rangeValues: [{ N: "2" }, { N: "2.5" }],
      prefixes: [],
    },
  ],
  claims: [{ hash: "id", hashValues: ["C0", "C1"], rangeValues: [], prefixes: [] }],
};

function keyConditionArb(space: KeySpace): fc.Arbitrary<(ctx: RenderContext) => string> {
  const hashPart = fc
    .constantFrom(...space.hashValues)
    .map((h) => (ctx: RenderContext) => `${ctx.name(space.hash)} = ${ctx.value({ S: h })}`);
  const rangeOps = [
    ...(space.rangeValues.length > 0
      ? [
          fc.tuple(fc.constantFrom("=", "<", "<=", ">", ">="), fc.constantFrom(...space.rangeValues)).map(
            ([op, v]) =>
              (ctx: RenderContext) =>
                `${ctx.name(space.range ?? "")} ${op} ${ctx.value(v)}`,
          ),
        ]
      : []),
    ...(space.prefixes.length > 0
      ? [
          fc
            .constantFrom(...space.prefixes)
            .map(
              (p) => (ctx: RenderContext) =>
                `begins_with(${ctx.name(space.range ?? "")}, ${ctx.value({ S: p })})`,
            ),
        ]
      : []),
  ];
  if (rangeOps.length === 0) return hashPart;
  return fc.tuple(hashPart, fc.option(fc.oneof(...rangeOps), { nil: undefined })).map(
    ([h, r]) =>
      (ctx: RenderContext) =>
        r ? `${h(ctx)} AND ${r(ctx)}` : h(ctx),
  );
}

/** Query on the table or an index: key condition, filter, projection, direction and a Limit that forces paging. */
export const queryArb: fc.Arbitrary<Op> = tableArb.chain((table) =>
  fc.constantFrom(...KEY_SPACES[table]).chain((space) =>
    fc
      .record({
        key: keyConditionArb(space),
        filter: fc.option(condArb(table), { freq: 3, nil: undefined }),
        projection: projectionArb(table),
        limit: fc.constantFrom(undefined, 1, 2, 3),
        forward: fc.constantFrom(undefined, false),
      })
      .map(({ key, filter, projection, limit, forward }): Op => {
        const ctx = new RenderContext();
        const keyExpr = key(ctx);
        const filterExpr = filter ? renderCondition(filter, ctx) : undefined;
        const projExpr = renderProjection(projection, ctx);
        return {
          kind: "Query",
          input: clean({
            TableName: table,
            IndexName: space.index,
            KeyConditionExpression: keyExpr,
            FilterExpression: filterExpr,
            ProjectionExpression: projExpr,
            Limit: limit,
            ScanIndexForward: forward,
            ...ctx.maps(),
          }),
        };
      }),
  ),
);

/** Scan with a filter, as the sweeps scan; no Limit, since a scan's order is the table's hash order. */
export const scanArb: fc.Arbitrary<Op> = tableArb.chain((table) =>
  fc.record({ filter: fc.option(condArb(table), { nil: undefined }) }).map(({ filter }): Op => {
    const ctx = new RenderContext();
    const expr = filter ? renderCondition(filter, ctx) : undefined;
    return { kind: "Scan", input: clean({ TableName: table, FilterExpression: expr, ...ctx.maps() }) };
  }),
);

/** BatchGetItem over one or two tables, strongly consistent as the intent store reads, sometimes projected. */
export const batchGetArb: fc.Arbitrary<Op> = fc
  .uniqueArray(tableArb, { minLength: 1, maxLength: 2 })
  .chain((tables) =>
    fc.tuple(
      ...tables.map((table) =>
        fc.record({
          table: fc.constant(table),
          keys: fc.uniqueArray(keyArb(table), {
            minLength: 1,
            maxLength: 3,
            selector: (k) => JSON.stringify(k),
          }),
          consistent: fc.constantFrom(undefined, true),
          projection: fc.option(fc.constantFrom("#a, amount", "#a"), { freq: 3, nil: undefined }),
        }),
      ),
    ),
  )
  .map((parts): Op => {
    const requestItems: Record<string, unknown> = {};
    for (const { table, keys, consistent, projection } of parts) {
      const projected = projection && `${projection}, ${TABLES[table].hash}`;
      requestItems[table] = clean({
        Keys: keys,
        ConsistentRead: consistent,
        ProjectionExpression: projected,
        ExpressionAttributeNames: projected ? { "#a": "state" } : undefined,
      });
    }
    return { kind: "BatchGetItem", input: { RequestItems: requestItems } };
  });
