import { describe, expect, it } from "vitest";
import {
  baseWriteUnits,
  indexWriteUnits,
  itemBytes,
  readUnits,
  type TableShape,
  writeUnits,
} from "../../bench/cost/billing-rules";
import { nativeInput } from "../../bench/cost/native-input";

const ledger: TableShape = {
  name: "ledger",
  keys: ["pk", "sk"],
  indexes: [{ name: "gsi1", keys: ["gsi1pk", "gsi1sk"], projection: "ALL" }],
};
const keysOnly: TableShape = {
  ...ledger,
  indexes: [{ ...(ledger.indexes[0] as TableShape["indexes"][0]), projection: "KEYS_ONLY" }],
};
const row = { pk: "PAY#p1", sk: "PAYMENT", state: "UNKNOWN", gsi1pk: "SWEEP#UNKNOWN", gsi1sk: "0001" };

describe("AWS's billing rules", () => {
  it("sizes an item by its attribute names and values", () => {
    expect(itemBytes({ pk: "PAY#p1" })).toBe(2 + 6);
    expect(itemBytes({ n: 12345 })).toBe(1 + 4);
    expect(itemBytes({ ok: true, m: { a: "x" } })).toBe(2 + 1 + 1 + 3 + 1 + 1 + 1);
  });

  it("bills one write unit per started KB, at least one, twice in a transaction, and the larger of before and after", () => {
    expect([writeUnits(0), writeUnits(1024), writeUnits(1025)]).toEqual([1, 1, 2]);
    const big = { pk: "x", blob: "b".repeat(3000) };
    expect(baseWriteUnits(big, { pk: "x" }, false)).toBe(3);
    expect(baseWriteUnits(undefined, { pk: "x" }, true)).toBe(2);
  });

  it("bills reads per started 4 KB, half for an eventually consistent read", () => {
    expect([readUnits(100, true), readUnits(5000, true), readUnits(5000, false)]).toEqual([1, 2, 1]);
  });

  it("bills an index entry added, removed, changed or moved, and nothing when the index does not change", () => {
    const settled = { pk: "PAY#p1", sk: "PAYMENT", state: "SUCCEEDED" };
    expect(indexWriteUnits(ledger, undefined, row)).toBe(1);
    expect(indexWriteUnits(ledger, row, settled)).toBe(1);
    expect(indexWriteUnits(ledger, row, { ...row, gsi1sk: "0002" })).toBe(2);
    expect(indexWriteUnits(ledger, row, { ...row, note: "x" })).toBe(1);
    expect(indexWriteUnits(keysOnly, row, { ...row, note: "x" })).toBe(0);
    expect(indexWriteUnits(ledger, settled, { ...settled, note: "x" })).toBe(0);
  });

  it("reads a raw client's marshalled item as the document client's", () => {
    const raw = { TableName: "t", Item: { id: { S: "k" }, n: { N: "3" } } };
    expect(nativeInput(raw).Item).toEqual({ id: "k", n: 3 });
    expect(nativeInput({ TableName: "t", Item: { id: "k" } }).Item).toEqual({ id: "k" });
  });
});
