import { unsafeCountDeclined } from "./stream-job-test-switches";

/** One change the job counts: a payment's move to SUCCEEDED (+amount) or REFUNDED (-amount), with a derived id. */
export interface JobEvent {
  /** `{payment_id}:{state}`, the outbox event's id: the same whichever path or Region made the move. */
  eventId: string;
  merchant: string;
  /** The UTC day of the event time, YYYY-MM-DD. */
  day: string;
  amount: number;
  /** The move's time on the ledger (`updated_at`), in ms: event time, not the time the job read it. */
  eventTime: number;
}

type Image = Record<string, { S?: string; N?: string }> | undefined;

/** A ledger stream record as far as the job reads it (no `aws-lambda` types in the domain). */
export interface JobRecord {
  eventName?: string;
  dynamodb?: { NewImage?: Image; OldImage?: Image; SequenceNumber?: string };
}

const COUNTED: Record<string, 1 | -1> = { SUCCEEDED: 1, REFUNDED: -1 };

/**
 * The job's events in a batch of ledger stream records: payment rows whose state moved into SUCCEEDED or REFUNDED.
 * A declined payment contributes nothing; a row rewritten without a move (a sweep touch) is not an event.
 */
export function jobEventsOf(records: readonly JobRecord[]): JobEvent[] {
  const events: JobEvent[] = [];
  for (const r of records) {
    const next = r.dynamodb?.NewImage;
    const state = next?.state?.S ?? "";
    if (next?.sk?.S !== "PAYMENT" || state === r.dynamodb?.OldImage?.state?.S) continue;
    // The branch-S bug of the job's v1: a declined payment counted as if it were paid.
    const sign = COUNTED[state] ?? (state === "FAILED" && unsafeCountDeclined() ? 1 : undefined);
    const paymentId = next.payment_id?.S;
    const merchant = next.merchant_id?.S;
    const eventTime = Number(next.updated_at?.N);
    if (!sign || !paymentId || !merchant || !Number.isFinite(eventTime)) continue;
    events.push({
      eventId: `${paymentId}:${state}`,
      merchant,
      day: new Date(eventTime).toISOString().slice(0, 10),
      amount: sign * Number(next.amount?.N ?? 0),
      eventTime,
    });
  }
  return events;
}
