import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { errorText } from "../pollers/invoke-handler";
import { Waker } from "../pollers/timing";
import { type ApplyOutcome, applyChange } from "./apply-change";
import type { ChangeQueue } from "./change-queue";
import { sameImage } from "./item-identity";
import type { ReplicaVersions } from "./replica-versions";
import type { ReplicationControls } from "./replication-controls";
import type { ItemChange, Role, Version } from "./replication-types";
import { isLater } from "./write-time";

/** What the shipper needs from the replicator. */
export interface ShipperOptions {
  queue: ChangeQueue;
  controls: ReplicationControls;
  versionsOf: (table: string, role: Role) => ReplicaVersions;
  clients: Record<Role, DynamoDBClient>;
  /** How long a refused apply (the target holds a version not yet read from its stream) waits to be tried again. */
  retryMs: number;
  beforeApply?: (change: ItemChange) => Promise<void>;
  log: (line: string) => void;
}

/** At most this many applies run at once (different items; one item's changes apply one at a time). */
const MAX_IN_FLIGHT = 16;
/** The longest the shipper sleeps; a new change, a finished apply or a control change wakes it sooner. */
const MAX_SLEEP_MS = 250;
const ERROR_RETRY_MS = 500;

/** When a change is due in its target Region: its write time plus the lag and its own jitter (a repair: at once). */
export function dueAt(change: ItemChange, lagMs: number): number {
  const due = change.repair ? change.writtenAt.at : change.writtenAt.at + lagMs + change.jitterMs;
  return Math.max(due, change.notBefore ?? 0);
}

/** Delivers each queued change once it is due, in order per item, applying it only if it is the later write. */
export class Shipper {
  private readonly abort = new AbortController();
  private readonly waker = new Waker();
  private readonly inFlight = new Map<string, Promise<void>>();
  private loop: Promise<void> = Promise.resolve();

  constructor(private readonly o: ShipperOptions) {}

  /** Starts the delivery loop. */
  start(): void {
    this.loop = this.run();
  }

  /** Looks at the queue again now (a change arrived, or a control changed). */
  poke(): void {
    this.waker.poke();
  }

  /** How many applies are under way. */
  applying(): number {
    return this.inFlight.size;
  }

  /** Stops delivering and waits for the applies under way. */
  async stop(): Promise<void> {
    this.abort.abort();
    await this.loop;
    await Promise.all(this.inFlight.values());
  }

  private async run(): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) await this.waker.pause(this.startDue(Date.now()), signal);
  }

  /** Starts every due change whose item has no apply under way, and returns how long until the next is due. */
  private startDue(now: number): number {
    let sleep = MAX_SLEEP_MS;
    for (const [slot, change] of this.o.queue.heads()) {
      if (this.inFlight.has(slot) || !this.o.controls.open(change)) continue;
      const wait = dueAt(change, this.o.controls.lagMs) - now;
      if (wait > 0) sleep = Math.min(sleep, wait);
      else if (this.inFlight.size < MAX_IN_FLIGHT) this.inFlight.set(slot, this.deliver(slot, change));
    }
    return sleep;
  }

  private async deliver(slot: string, change: ItemChange): Promise<void> {
    try {
      const outcome = await this.applyIfLater(change);
      if (outcome === "conflict") this.refused(change);
      else this.o.queue.finish(slot);
    } catch (err) {
      change.notBefore = Date.now() + ERROR_RETRY_MS;
      this.o.log(`applying ${change.key} in ${change.to} failed, will retry: ${errorText(err)}`);
    } finally {
      this.inFlight.delete(slot);
      this.waker.poke();
    }
  }

  /** The target holds a version its stream has not shown yet: try again once it has, and say so if that lasts. */
  private refused(change: ItemChange): void {
    change.notBefore = Date.now() + this.o.retryMs;
    change.refusals = (change.refusals ?? 0) + 1;
    if (change.refusals % 50 === 0) {
      this.o.log(`applying ${change.key} in ${change.to} was refused ${change.refusals} times; still trying`);
    }
  }

  /** Last writer wins: applies the change only if it is later than the target's latest write of the item. */
  private async applyIfLater(change: ItemChange): Promise<ApplyOutcome | "lost"> {
    const versions = this.o.versionsOf(change.table, change.to);
    const latest = versions.latest(change.key);
    if (latest && !isLater(change.writtenAt, latest.writtenAt)) return "lost";
    const version: Version = { image: change.image, writtenAt: change.writtenAt };
    if (sameImage(latest?.image, change.image)) {
      versions.keepTime(change.key, version);
      return "unchanged";
    }
    await this.o.beforeApply?.(change);
    // Expected before the call: the stream may show the record before the call's answer arrives.
    versions.expectEcho(change.key, version);
    let outcome: ApplyOutcome;
    try {
      outcome = await applyChange(this.o.clients[change.to], change, latest?.image);
    } catch (err) {
      versions.withdrawEcho(change.key, version);
      throw err;
    }
    if (outcome !== "applied") versions.withdrawEcho(change.key, version);
    if (outcome === "unchanged") versions.keepTime(change.key, version);
    return outcome;
  }
}
