import fc from "fast-check";
import { invalidArb } from "./gen-invalid";
import { batchWriteArb, transactWriteArb } from "./gen-multi";
import { batchGetArb, getItemArb, queryArb, scanArb } from "./gen-reads";
import { deleteItemArb, putItemArb, updateItemArb } from "./gen-writes";
import type { Op } from "./op";

/**
 * One request of the corpus, weighted like the project's traffic: writes (mostly conditional updates and puts)
 * dominate, reads follow, then transactions, batches and a tail of invalid requests.
 */
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: putItemArb, weight: 6 },
  { arbitrary: updateItemArb, weight: 7 },
  { arbitrary: deleteItemArb, weight: 2 },
  { arbitrary: getItemArb, weight: 3 },
  { arbitrary: queryArb, weight: 3 },
  { arbitrary: scanArb, weight: 1 },
  { arbitrary: transactWriteArb, weight: 3 },
  { arbitrary: batchWriteArb, weight: 1 },
  { arbitrary: batchGetArb, weight: 1 },
  { arbitrary: invalidArb, weight: 2 },
);

/** A run's operations: up to `opsPerRun`, shrinking toward the fewest that still disagree. */
export function opsArb(opsPerRun: number): fc.Arbitrary<Op[]> {
  return fc.array(opArb, { minLength: 1, maxLength: opsPerRun, size: "max" });
}
