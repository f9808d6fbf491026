import { canonicalJson } from "./normalize";
import { TABLES, type TableName } from "./tables";

type Page = {
  Items?: Record<string, unknown>[];
  LastEvaluatedKey?: Record<string, unknown>;
  [k: string]: unknown;
};

/**
 * A global secondary index does not order items whose index keys are equal (DynamoDB documents no order among
 * them; DynamoDB Local happens to answer them in the order they were written), so an index Query is compared as:
 * every page's ScannedCount and the index-key part of its LastEvaluatedKey (the same under any order of ties), the
 * total Count, and all pages' items in sequence with each run of equal index keys sorted. An item projected without
 * its index keys cannot be placed in a run: then the whole sequence is sorted and its order goes unchecked.
 */
export function indexQueryView(table: string, indexName: string, pages: Page[]): Record<string, unknown> {
  const ix = TABLES[table as TableName]?.indexes[indexName];
  if (!ix) return { pages };
  const items = pages.flatMap((p) => p.Items ?? []);
  const keyOf = (item: Record<string, unknown>) => canonicalJson([item[ix.hash], item[ix.range]]);
  const placed = items.every((i) => i[ix.hash] !== undefined && i[ix.range] !== undefined);
  return {
    pages: pages.map((p) => ({
      ScannedCount: p.ScannedCount,
      ...(p.LastEvaluatedKey
        ? {
            LastEvaluatedKey: {
              [ix.hash]: p.LastEvaluatedKey[ix.hash],
              [ix.range]: p.LastEvaluatedKey[ix.range],
            },
          }
        : {}),
    })),
    Count: pages.reduce((n, p) => n + Number(p.Count ?? 0), 0),
    Items: placed ? sortRuns(items, keyOf) : sortAll(items),
  };
}

function sortAll(items: unknown[]): unknown[] {
  return [...items].sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
}

/** Sorts each run of consecutive items with the same key, leaving the runs in their order. */
function sortRuns<T>(items: T[], keyOf: (item: T) => string): T[] {
  const out: T[] = [];
  let run: T[] = [];
  for (const item of items) {
    if (run.length > 0 && keyOf(run[0] as T) !== keyOf(item)) {
      out.push(...(sortAll(run) as T[]));
      run = [];
    }
    run.push(item);
  }
  out.push(...(sortAll(run) as T[]));
  return out;
}
