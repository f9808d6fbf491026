import { numberKey } from "./number-key";
import type { OpKind, Outcome } from "./op";

/**
 * Normalization: what may legitimately differ between two correct DynamoDBs is removed, everything else is kept
 * exactly (error messages included). Removed: `$metadata` (request ids, attempts), the order of a set's members
 * (DynamoDB documents sets as unordered), the spelling of numbers (compared by value: see number-key.ts), the order of a Scan's items (the table's hash order, not part of the
 * API) and of BatchGetItem's Responses (documented as unordered), and the run's table-name prefix. Also removed:
 * ConsumedCapacity, which the corpus (like the project's code) never asks for but DynamoDB Local sends on
 * DeleteItem all the same (AWS sends it only when ReturnConsumedCapacity asks).
 */
export function normalizeReply(
  kind: OpKind,
  reply: Record<string, unknown>,
  prefix: string,
): Record<string, unknown> {
  const { $metadata: _ignored, ConsumedCapacity: _unasked, ...rest } = reply;
  const out = sortSets(rest) as Record<string, unknown>;
  if (kind === "Scan" && Array.isArray(out.Items)) out.Items = sortByJson(out.Items);
  if (kind === "BatchGetItem") {
    out.Responses = unprefixKeys(out.Responses, prefix, (items) => sortByJson(items as unknown[]));
    out.UnprocessedKeys = unprefixKeys(out.UnprocessedKeys, prefix);
  }
  if (kind === "BatchWriteItem") out.UnprocessedItems = unprefixKeys(out.UnprocessedItems, prefix);
  return out;
}

/** The outcome of a refused request: the error's name and message and the items it carries back. */
export function normalizeError(err: unknown): Outcome {
  const e = err as { name?: string; message?: string; Item?: unknown; CancellationReasons?: unknown };
  const error: Extract<Outcome, { error: unknown }>["error"] = {
    name: String(e?.name ?? "unknown"),
    message: String(e?.message ?? err),
  };
  if (e?.Item !== undefined) error.Item = sortSets(e.Item);
  if (e?.CancellationReasons !== undefined) error.CancellationReasons = sortSets(e.CancellationReasons);
  return { error };
}

/**
 * Sorts the members of every string and number set in a value (lists keep their order) and writes every number
 * as its value (see number-key.ts).
 */
export function sortSets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortSets);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === "N" && typeof v === "string") out[k] = numberKey(v);
    else if (k === "NS" && Array.isArray(v)) out[k] = v.map((n) => numberKey(String(n))).sort();
    else if (k === "SS" && Array.isArray(v)) out[k] = [...v].sort();
    else out[k] = sortSets(v);
  }
  return out;
}

/** Sorts values by their canonical JSON: an order for things whose order carries no meaning. */
export function sortByJson(values: unknown[]): unknown[] {
  return [...values].sort((a, b) => (canonicalJson(a) < canonicalJson(b) ? -1 : 1));
}

/** JSON with object keys sorted, so two equal values print the same. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v) =>
    v && typeof v === "object" && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

function unprefixKeys(map: unknown, prefix: string, each: (v: unknown) => unknown = (v) => v): unknown {
  if (!map || typeof map !== "object") return map;
  return Object.fromEntries(
    Object.entries(map).map(([t, v]) => [t.startsWith(prefix) ? t.slice(prefix.length) : t, each(v)]),
  );
}
