import { crashPoint } from "../faults/crash-point";
import { finishIntents, type NotifyDeps, type NotifyReport } from "../notification/finish-intents";
import { intentsOf } from "../notification/intent";
import type { TimeBudget } from "../notification/send-within-budget";
import { unsafeSwitches } from "../notification/test-switches";
import type { PaymentEvent } from "../outbox/payment-event";
import type { Inbox } from "./dynamo-inbox";
import { crashIfArmed } from "./injected-crash";

/** What the worker runs on. */
export interface WorkerDeps extends NotifyDeps {
  inbox: Inbox;
}

/** What handling one delivery came to. */
export interface EventOutcome extends NotifyReport {
  /** The inbox already held the event: the credit or debit was skipped (a duplicate dropped by the inbox). */
  duplicate: boolean;
}

/**
 * Handles one delivery of an event: the transaction (inbox, credit or debit, balance shard, intents), then the
 * notification step, which also runs for a duplicate, because "ready means notified" (Part 7, Branch R):
 * a worker that committed and died before sending left intents PENDING for this run to finish. `budget` is
 * what is left of the invocation, for retrying a throttled provider.
 */
export async function handleEvent(
  deps: WorkerDeps,
  event: PaymentEvent,
  budget: TimeBudget,
): Promise<EventOutcome> {
  const now = deps.clock.now();
  const applied = await deps.inbox.applyOnce(event, intentsOf(event, now), now);
  if (applied === "applied") {
    crashIfArmed("worker_crash_after_commit");
    await crashPoint("worker.after_commit");
  }
  if (applied === "duplicate" && unsafeSwitches().duplicateOnlyAcks)
    return { duplicate: true, sent: [], suppressed: [], failed: [], retries: 0, failedOpen: 0 };
  const report = await finishIntents(deps, event, budget);
  return { duplicate: applied === "duplicate", ...report };
}
