import { describe, expect, it } from "vitest";
import { withoutEmptyLastPage } from "../../src/differential/execute";
import { indexQueryView } from "../../src/differential/index-order";
import { dropUnneeded } from "../../src/differential/minimize";
import { numberKey } from "../../src/differential/number-key";
import type { Op, Outcome } from "../../src/differential/op";
import { sameOutcome } from "../../src/differential/same-outcome";

const fail = (name: string, message: string, extra: object = {}): Outcome => ({
  error: { name, message, ...extra },
});
const key = (pk: string) => ({ pk: { S: pk }, sk: { S: "PAYMENT" } });
const tx = (...keys: string[]): Op => ({
  kind: "TransactWriteItems",
  input: { TransactItems: keys.map((k) => ({ ConditionCheck: { TableName: "ledger", Key: key(k) } })) },
});

describe("differential comparison: numbers", () => {
  it("compares numbers by value, whatever their spelling", () => {
    // act / assess
    expect(numberKey("1.50")).toBe(numberKey("1.5"));
    expect(numberKey("1E+2")).toBe(numberKey("100"));
    expect(numberKey("-0.0")).toBe(numberKey("0"));
    expect(numberKey("0.3")).not.toBe(numberKey("0.30000000000000004"));
    expect(numberKey("12345678901234567890123456789012345678")).not.toBe(
      numberKey("12345678901234567890123456789012345670"),
    );
  });
});

describe("differential comparison: where DynamoDB Local differs from AWS", () => {
  it("takes AWS's wording for an incomplete key, and no other wording", () => {
    // prepare
    const local = fail("ValidationException", "The number of conditions on the keys is invalid");

    // act / assess
    expect(
      sameOutcome(local, fail("ValidationException", "The provided key element does not match the schema")),
    ).toBe(true);
    expect(sameOutcome(local, fail("ValidationException", "Some other text"))).toBe(false);
  });

  it("lets a duplicate target be refused first only when the transaction really targets one item twice", () => {
    // prepare
    const cancelled = fail(
      "TransactionCanceledException",
      "Transaction cancelled [ConditionalCheckFailed, None]",
    );
    const refused = fail(
      "ValidationException",
      "Transaction request cannot include multiple operations on one item",
    );

    // act / assess
    expect(sameOutcome(cancelled, refused, tx("P0", "P0"))).toBe(true);
    expect(sameOutcome(cancelled, refused, tx("P0", "P1"))).toBe(false);
  });

  it("accepts a cancellation for an update failing on the stored item only with Local's message", () => {
    // prepare
    const message = "The provided expression refers to an attribute that does not exist in the item";
    const reasons = (m: string) => ({ CancellationReasons: [{ Code: "ValidationError", Message: m }] });
    const cancelled = (m: string) =>
      fail("TransactionCanceledException", "Transaction cancelled [ValidationError]", reasons(m));

    // act / assess
    expect(sameOutcome(fail("ValidationException", message), cancelled(message), tx("P0"))).toBe(true);
    expect(sameOutcome(fail("ValidationException", message), cancelled("other"), tx("P0"))).toBe(false);
    expect(
      sameOutcome(
        fail("ValidationException", "Invalid attribute value type"),
        cancelled("Invalid attribute value type"),
        tx("P0"),
      ),
    ).toBe(false);
  });

  it("compares an overlap refusal up to the pair of paths, not beyond", () => {
    // prepare
    const text =
      "Invalid UpdateExpression: Two document paths overlap with each other; must remove or rewrite one of these paths;";

    // act / assess
    expect(
      sameOutcome(
        fail("ValidationException", `${text} path one: [a], path two: [b]`),
        fail("ValidationException", `${text} path one: [a], path two: [a]`),
      ),
    ).toBe(true);
    expect(
      sameOutcome(
        fail("ValidationException", `${text} path one: [a]`),
        fail("ValidationException", "Invalid UpdateExpression: other"),
      ),
    ).toBe(false);
  });
});

describe("differential comparison: pages", () => {
  it("drops an empty last page only after a page that read exactly Limit items", () => {
    // prepare
    const full = {
      Items: [{ pk: { S: "P0" } }],
      Count: 1,
      ScannedCount: 1,
      LastEvaluatedKey: { pk: { S: "P0" } },
    };
    const empty = { Items: [], Count: 0, ScannedCount: 0 };

    // act / assess
    expect(withoutEmptyLastPage([full, empty], 1)).toEqual([
      { Items: full.Items, Count: 1, ScannedCount: 1 },
    ]);
    expect(withoutEmptyLastPage([full, empty], 2)).toEqual([full, empty]);
  });

  it("sorts a GSI's items only within runs of equal index keys", () => {
    // prepare: two tied items written in either order, and one with a later index key
    const item = (pk: string, sk: string) => ({ pk: { S: pk }, gsi1pk: { S: "G1" }, gsi1sk: { S: sk } });
    const page = (items: Record<string, unknown>[]) => ({
      Items: items,
      Count: items.length,
      ScannedCount: items.length,
    });

    // act
    const a = indexQueryView("ledger", "gsi1", [page([item("P1", "1"), item("P0", "1"), item("P2", "2")])]);
    const b = indexQueryView("ledger", "gsi1", [page([item("P0", "1"), item("P1", "1"), item("P2", "2")])]);
    const misordered = indexQueryView("ledger", "gsi1", [
      page([item("P2", "2"), item("P0", "1"), item("P1", "1")]),
    ]);

    // assess
    expect(a).toEqual(b);
    expect(misordered).not.toEqual(a);
  });
});

describe("differential comparison: minimizing", () => {
  it("keeps only the ops the failure needs", async () => {
    // act: fails whenever 3 and 7 are both present
    const kept = await dropUnneeded([1, 3, 5, 7, 9], async (xs) => xs.includes(3) && xs.includes(7));

    // assess
    expect(kept).toEqual([3, 7]);
  });
});
