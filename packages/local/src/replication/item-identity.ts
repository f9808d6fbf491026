import type { AttributeValue } from "aws-lambda";
import type { ItemImage } from "./replication-types";

/** A stable text form of a value: map keys sorted, set members sorted (DynamoDB keeps sets unordered). */
export function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const inner = (v as Record<string, unknown>)[k];
    const isSet = k === "SS" || k === "NS" || k === "BS";
    out[k] = isSet && Array.isArray(inner) ? [...inner].sort() : canonical(inner);
  }
  return out;
}

/** True when two images hold the same attributes and values (both undefined: both absent). */
export function sameImage(a: ItemImage | undefined, b: ItemImage | undefined): boolean {
  if (!a || !b) return a === b;
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

/** The identity of an item within its table, from its key attributes. */
export function itemKey(table: string, keys: Record<string, AttributeValue>): string {
  return `${table}|${JSON.stringify(canonical(keys))}`;
}
