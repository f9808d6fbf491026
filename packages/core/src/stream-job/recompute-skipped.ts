import { z } from "zod";
import type { PaymentState } from "../payment/payment-state";
import type { SkippedBatch } from "./skipped-batch";

/** A skipped batch as its failure queue holds it: anything else is left there for a person to read. */
const skippedBatchSchema = z.object({
  kind: z.literal("stream-job-batch-skipped"),
  shard: z.string().min(1),
  window: z.string().min(1),
  firstSequence: z.string().min(1),
  lastSequence: z.string(),
  records: z.number().int().nonnegative(),
  error: z.string(),
  attempts: z.number().int().nonnegative(),
  events: z.array(
    z.object({
      eventId: z.string().regex(/^.+:(SUCCEEDED|REFUNDED)$/),
      merchant: z.string().min(1),
      day: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
      amount: z.number().int(),
      eventTime: z.number(),
    }),
  ),
});

/** Reads a failure queue message: the batch, or why it cannot be recomputed. */
export function parseSkippedBatch(
  body: string,
): { ok: true; batch: SkippedBatch } | { ok: false; reason: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(body);
  } catch {
    return { ok: false, reason: "not JSON" };
  }
  const parsed = skippedBatchSchema.safeParse(raw);
  if (!parsed.success)
    return { ok: false, reason: `not a skipped batch: ${parsed.error.issues[0]?.message}` };
  return { ok: true, batch: parsed.data };
}

/** The ledger's payment row as the recompute checks an event against it. */
export interface PaymentOfEvent {
  state: PaymentState;
  merchant_id: string;
  amount: number;
}

/** One merchant's day to add to: an absolute total under the batch's own sink key, so a second run writes the same. */
export interface RecomputedTotal {
  merchant: string;
  day: string;
  total: number;
}

/** What a skipped batch comes to: its totals, or the first event the ledger does not confirm (nothing is written). */
export type RecomputePlan =
  | { ok: true; id: string; totals: RecomputedTotal[]; events: number }
  | { ok: false; reason: string };

// A row that was never charged (or is still open) cannot have made a SUCCEEDED or REFUNDED move.
const NEVER_MOVED: readonly PaymentState[] = ["PENDING", "UNKNOWN", "FAILED"];

/**
 * Plans the recompute of a batch the stream job gave up on: each event checked against its payment row in the ledger
 * (there, the same merchant and amount, and a state the move leads to), then summed by merchant and day.
 */
export async function planRecompute(
  batch: SkippedBatch,
  payment: (paymentId: string) => Promise<PaymentOfEvent | undefined>,
): Promise<RecomputePlan> {
  const sums = new Map<string, RecomputedTotal>();
  for (const e of batch.events) {
    const paymentId = e.eventId.slice(0, e.eventId.lastIndexOf(":"));
    const row = await payment(paymentId);
    if (!row) return { ok: false, reason: `${e.eventId}: no payment ${paymentId} in the ledger` };
    if (row.merchant_id !== e.merchant || row.amount !== Math.abs(e.amount))
      return {
        ok: false,
        reason: `${e.eventId}: the ledger has merchant ${row.merchant_id}, amount ${row.amount}`,
      };
    if (NEVER_MOVED.includes(row.state))
      return {
        ok: false,
        reason: `${e.eventId}: the ledger's row is ${row.state}, which no such move leaves`,
      };
    const key = `${e.merchant}|${e.day}`;
    const sum = sums.get(key) ?? { merchant: e.merchant, day: e.day, total: 0 };
    sum.total += e.amount;
    sums.set(key, sum);
  }
  return {
    ok: true,
    id: `${batch.shard}#${batch.firstSequence}`,
    totals: [...sums.values()],
    events: batch.events.length,
  };
}
