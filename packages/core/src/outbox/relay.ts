import type { Clock } from "../clock/clock";
import { crashPoint } from "../faults/crash-point";
import { crashIfArmed } from "../inbox/injected-crash";
import type { OutboxItem } from "../ledger/ledger-items";
import { unsafeSweepsOneCheck } from "../region/act-window";
import type { EventPublisher } from "./event-publisher";
import type { OutboxStore } from "./outbox-store";
import { eventOfOutbox } from "./payment-event";

/** What the relay and the sweep run on. */
export interface RelayDeps {
  publisher: EventPublisher;
  outbox: OutboxStore;
  clock: Clock;
}

/** What a sweep pass did. */
export interface SweepReport {
  examined: number;
  resent: number;
  failed: number;
  /** Items left for the next pass because an older item of the same merchant failed (order is per merchant). */
  held: number;
  /** Set when a re-check found the Region passive mid-pass: the items after it are left to the active Region. */
  stopped?: "passive";
}

/** What a sweep pass is told: how old an item must be, how many to take, and how to re-check the authority. */
export interface SweepOptions {
  olderThanMs: number;
  limit: number;
  /**
   * Asked before each item (a read of the authority at most the control cache old): a pass that outlives a fence
   * stops within one item instead of acting for the rest of its run (issue 40, item 6).
   */
  stillActive?: () => Promise<boolean>;
}

/**
 * Publishes each new outbox event, then takes it out of the outbox (the relay of Part 6: publish, delete). The first failure
 * throws, leaving that item and the rest for the retried batch; items already published are simply sent again
 * with the same id, which the queue's window or the worker's inbox drops.
 */
export async function relayOutbox(deps: RelayDeps, items: OutboxItem[]): Promise<{ published: string[] }> {
  const published: string[] = [];
  for (const item of items) {
    await relayOne(deps, item);
    published.push(item.event_id);
  }
  return { published };
}

/**
 * Re-sends outbox items older than `olderThanMs` (the stream lost or trimmed them, or the relay gave up), with
 * the id stored in each; once one of a merchant's items fails, that merchant's later items wait for the next pass.
 */
export async function sweepOutbox(deps: RelayDeps, opts: SweepOptions): Promise<SweepReport> {
  const items = await deps.outbox.listOlderThan(deps.clock.now() - opts.olderThanMs, opts.limit);
  const report: SweepReport = { examined: items.length, resent: 0, failed: 0, held: 0 };
  const blocked = new Set<string>();
  for (const item of items) {
    if (opts.stillActive && !unsafeSweepsOneCheck() && !(await opts.stillActive())) {
      report.stopped = "passive";
      break;
    }
    if (blocked.has(item.merchant_id)) {
      report.held += 1;
      continue;
    }
    try {
      await relayOne(deps, item);
      report.resent += 1;
    } catch {
      report.failed += 1;
      blocked.add(item.merchant_id);
    }
  }
  return report;
}

async function relayOne(deps: RelayDeps, item: OutboxItem): Promise<void> {
  await deps.publisher.publish(eventOfOutbox(item));
  crashIfArmed("relay_crash_after_publish");
  await crashPoint("relay.after_publish");
  await deps.outbox.remove(item);
  await crashPoint("relay.after_delete");
}
