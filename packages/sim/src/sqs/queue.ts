import type { StoredMessage } from "./message";
import { type QueueSettings, settingsAttributes } from "./queue-settings";

/** How long SQS remembers a deduplication id: 5 minutes from the send it accepted. */
export const DEDUP_INTERVAL_MS = 300_000;

/** What a deduplicated send answers with: the original message's ids. */
export interface DedupRecord {
  at: number;
  messageId: string;
  sequenceNumber?: string;
}

/** One queue: its settings, its messages in send order, and its deduplication memory. */
export class Queue {
  readonly messages = new Map<number, StoredMessage>();
  readonly dedup = new Map<string, DedupRecord>();
  sequence = 0;
  lastPurgeAt?: number;
  modifiedAt: number;
  /** The last time a waker checked for messages that became visible, so each one wakes pollers once. */
  wokeUpTo: number;

  constructor(
    readonly name: string,
    readonly url: string,
    readonly arn: string,
    public settings: QueueSettings,
    /** The attributes CreateQueue was called with: a second CreateQueue must name the same ones. */
    readonly createdWith: Record<string, string>,
    readonly createdAt: number,
  ) {
    this.modifiedAt = createdAt;
    this.wokeUpTo = createdAt;
  }

  get fifo(): boolean {
    return this.settings.fifo;
  }

  /** The key a deduplication id is remembered under, per the queue's DeduplicationScope. */
  dedupKey(groupId: string | undefined, dedupId: string): string {
    return this.settings.deduplicationScope === "messageGroup" ? `${groupId}\u0000${dedupId}` : dedupId;
  }

  /** The original send a deduplication id still names, if it is inside its interval. */
  duplicateOf(key: string, now: number): DedupRecord | undefined {
    const record = this.dedup.get(key);
    if (record && now < record.at + DEDUP_INTERVAL_MS) return record;
    if (record) this.dedup.delete(key);
    return undefined;
  }

  /** Drops messages past the retention period and deduplication ids past their interval. */
  expire(now: number): void {
    const retentionMs = this.settings.retentionS * 1000;
    for (const [seq, m] of this.messages) if (now >= m.enqueuedAt + retentionMs) this.messages.delete(seq);
    for (const [key, r] of this.dedup) if (now >= r.at + DEDUP_INTERVAL_MS) this.dedup.delete(key);
  }

  /**
   * The messages a receive may take now, in the order it takes them. Standard: every visible message, oldest
   * first. FIFO: group by group, a group whose message is in flight is skipped whole, and each other group gives
   * its visible messages from the head on, as many as it can (AWS returns a group's messages together).
   */
  candidates(now: number, max: number): StoredMessage[] {
    if (!this.fifo) {
      const out: StoredMessage[] = [];
      for (const m of this.messages.values()) {
        if (m.visibleAt <= now) out.push(m);
        if (out.length >= max) break;
      }
      return out;
    }
    const out: StoredMessage[] = [];
    for (const group of this.groups().values()) {
      if (group.some((m) => inFlight(m, now))) continue;
      for (const m of group) {
        if (m.visibleAt > now || out.length >= max) break;
        out.push(m);
      }
      if (out.length >= max) break;
    }
    return out;
  }

  /** The FIFO groups in the order of their oldest message, each in send order. */
  groups(): Map<string, StoredMessage[]> {
    const groups = new Map<string, StoredMessage[]>();
    for (const m of this.messages.values()) {
      const key = m.groupId ?? "";
      const list = groups.get(key);
      if (list) list.push(m);
      else groups.set(key, [m]);
    }
    return groups;
  }

  /** True when a receive now would get at least one message. */
  hasAvailable(now: number): boolean {
    return this.candidates(now, 1).length > 0;
  }

  /** The earliest future moment a hidden message shows again (a delay or a visibility timeout ends). */
  nextVisibleAt(now: number): number | undefined {
    let next: number | undefined;
    for (const m of this.messages.values())
      if (m.visibleAt > now && (next === undefined || m.visibleAt < next)) next = m.visibleAt;
    return next;
  }

  /** The earliest moment in (since, now] at which a hidden message became visible. */
  firstVisibleIn(since: number, now: number): number | undefined {
    let first: number | undefined;
    for (const m of this.messages.values())
      if (m.visibleAt > since && m.visibleAt <= now && (first === undefined || m.visibleAt < first))
        first = m.visibleAt;
    return first;
  }

  /** GetQueueAttributes' whole answer ("All"). */
  attributes(now: number): Record<string, string> {
    let visible = 0;
    let notVisible = 0;
    let delayed = 0;
    for (const m of this.messages.values()) {
      if (m.visibleAt <= now) visible += 1;
      else if (m.receiptNo > 0) notVisible += 1;
      else delayed += 1;
    }
    return {
      QueueArn: this.arn,
      ApproximateNumberOfMessages: String(visible),
      ApproximateNumberOfMessagesNotVisible: String(notVisible),
      ApproximateNumberOfMessagesDelayed: String(delayed),
      CreatedTimestamp: String(Math.floor(this.createdAt / 1000)),
      LastModifiedTimestamp: String(Math.floor(this.modifiedAt / 1000)),
      ...settingsAttributes(this.settings),
    };
  }
}

/** Received and not yet visible again. */
export function inFlight(m: StoredMessage, now: number): boolean {
  return m.receiptNo > 0 && m.visibleAt > now;
}
