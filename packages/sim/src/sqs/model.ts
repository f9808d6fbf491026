import { checkRedrive, moveToDeadLetter } from "./dead-letter";
import {
  invalidAttributeName,
  invalidParameterValue,
  purgeQueueInProgress,
  queueDoesNotExist,
  queueNameExists,
  sqsUnsupported,
} from "./errors";
import { LongPolls } from "./long-poll";
import type { StoredMessage } from "./message";
import { counterIds, type MessagingModelOptions, type QueuedMessage } from "./options";
import { Queue } from "./queue";
import { applyAttributes, defaultSettings, fifoOf, KNOWN_ABSENT } from "./queue-settings";
import { changeVisibility, deleteByReceipt } from "./receipts";
import { checkReceive, type ReceivedMessage, type ReceiveInput, takeMessages } from "./receive";
import { type SendInput, type SendOutput, sendMessage } from "./send";

/**
 * SQS, standard and FIFO, in one process under virtual time: queues, sends with FIFO deduplication, receives with
 * message groups, visibility, long polls that wait in virtual time, receipt handles, and redrive to a DLQ.
 */
export class SqsModel {
  readonly region: string;
  readonly account: string;
  private readonly queues = new Map<string, Queue>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private readonly polls = new LongPolls();
  private readonly nextId: () => string;
  private seq = 0;
  private timer: unknown;

  constructor(private readonly o: MessagingModelOptions) {
    this.region = o.region ?? "us-east-1";
    this.account = o.account ?? "000000000000";
    this.nextId = o.ids ?? counterIds();
  }

  private get now(): number {
    return this.o.clock.now();
  }

  /** CreateQueue: the queue's URL; the same name with the same attributes answers the same URL. */
  createQueue(name: string, attributes: Record<string, string> = {}, tags?: Record<string, string>): string {
    if (tags && Object.keys(tags).length > 0) throw sqsUnsupported("queue tags");
    const fifo = fifoOf(name, attributes);
    const existing = this.queues.get(name);
    if (existing) {
      const wanted = applyAttributes(existing.settings, attributes);
      if (JSON.stringify(wanted) !== JSON.stringify(existing.settings))
        throw queueNameExists(
          `A queue already exists with the same name and a different value for an attribute: ${name}`,
        );
      return existing.url;
    }
    const settings = applyAttributes(defaultSettings(fifo), attributes);
    checkRedrive(settings, (arn) => this.queueByArn(arn));
    const url = `https://sqs.${this.region}.amazonaws.com/${this.account}/${name}`;
    const arn = `arn:aws:sqs:${this.region}:${this.account}:${name}`;
    this.queues.set(name, new Queue(name, url, arn, settings, attributes, this.now));
    return url;
  }

  /** GetQueueUrl. */
  getQueueUrl(name: string, ownerAccount?: string): string {
    if (ownerAccount !== undefined && ownerAccount !== this.account) throw queueDoesNotExist();
    const q = this.queues.get(name);
    if (!q) throw queueDoesNotExist();
    return q.url;
  }

  /** ListQueues, in name order. */
  listQueues(prefix = ""): string[] {
    return [...this.queues.values()]
      .filter((q) => q.name.startsWith(prefix))
      .sort((a, b) => (a.name < b.name ? -1 : 1))
      .map((q) => q.url);
  }

  /** DeleteQueue: the queue and its messages go; a parked long poll on it fails. */
  deleteQueue(url: string): void {
    const q = this.queue(url);
    this.queues.delete(q.name);
    this.polls.fail(q.name, queueDoesNotExist());
  }

  /** GetQueueAttributes for the names asked ("All" for every one). */
  getQueueAttributes(url: string, names: string[] = []): Record<string, string> {
    const q = this.queue(url);
    const all = q.attributes(this.now);
    if (names.includes("All")) return all;
    const out: Record<string, string> = {};
    for (const n of names) {
      if (n in all) out[n] = all[n] as string;
      else if (!KNOWN_ABSENT.has(n)) throw invalidAttributeName(`Unknown Attribute ${n}.`);
    }
    return out;
  }

  /** SetQueueAttributes; applied at once (AWS may take up to a minute to propagate a change). */
  setQueueAttributes(url: string, attributes: Record<string, string>): void {
    const q = this.queue(url);
    const settings = applyAttributes(q.settings, attributes);
    checkRedrive(settings, (arn) => this.queueByArn(arn), q);
    q.settings = settings;
    q.modifiedAt = this.now;
  }

  /** PurgeQueue: every message goes; a second purge within 60 seconds is refused. */
  purgeQueue(url: string): void {
    const q = this.queue(url);
    if (q.lastPurgeAt !== undefined && this.now < q.lastPurgeAt + 60_000) throw purgeQueueInProgress(url);
    q.lastPurgeAt = this.now;
    q.messages.clear();
  }

  /** SendMessage. */
  sendMessage(url: string, input: SendInput): SendOutput {
    const q = this.queue(url);
    return sendMessage(this.sendContext(), q, input);
  }

  /** ReceiveMessage: at once when messages are available or no wait was asked, else a long poll in virtual time. */
  receiveMessage(url: string, input: ReceiveInput, signal?: AbortSignal): Promise<ReceivedMessage[]> {
    const q = this.queue(url);
    const { max, visibilityS, waitS } = checkReceive(q, input);
    q.expire(this.now);
    const take = () => takeMessages(this.receiveContext(), q, input, max, visibilityS);
    const got = take();
    if (got.length > 0 || waitS === 0) return Promise.resolve(got);
    const parked = this.polls.park(q.name, this.now + waitS * 1000, take, signal);
    this.arm();
    return parked;
  }

  /** DeleteMessage by receipt handle (see `deleteByReceipt` for stale handles). */
  deleteMessage(url: string, receiptHandle: string | undefined): void {
    const q = this.queue(url);
    if (!receiptHandle) throw invalidParameterValue("The request must contain the parameter ReceiptHandle.");
    const gone = deleteByReceipt(q, receiptHandle, this.now);
    // In a FIFO queue a deletion can free the group's next message.
    if (gone && q.fifo) this.announce(q);
  }

  /** ChangeMessageVisibility; a timeout of 0 makes the message available at once. */
  changeMessageVisibility(
    url: string,
    receiptHandle: string | undefined,
    timeoutS: number | undefined,
  ): void {
    const q = this.queue(url);
    if (!receiptHandle) throw invalidParameterValue("The request must contain the parameter ReceiptHandle.");
    const m = changeVisibility(q, receiptHandle, timeoutS, this.now);
    if (m.visibleAt <= this.now) this.announce(q);
    else this.arm();
  }

  /**
   * Calls `listener` whenever the queue may have new work: a send, a message visible again, a FIFO group freed.
   * A scheduler uses it to wake its pollers by data instead of a polling interval. Answers the unsubscribe.
   */
  onAvailable(queueUrl: string, listener: () => void): () => void {
    const name = this.queue(queueUrl).name;
    const set = this.listeners.get(name) ?? new Set();
    set.add(listener);
    this.listeners.set(name, set);
    return () => set.delete(listener);
  }

  /**
   * Brings the model to the clock's present: messages whose delay or visibility ended wake waiting receives and
   * listeners, then waits past their deadline end empty. Call it at each `nextEventAt()` (or pass `timers`).
   */
  tick(): void {
    const now = this.now;
    for (const q of this.queues.values()) {
      q.expire(now);
      const first = q.firstVisibleIn(q.wokeUpTo, now);
      // A wait that ended before the message showed gets nothing, as it would have in real time.
      if (first !== undefined) this.polls.expire(q.name, (d) => d < first);
      q.wokeUpTo = now;
      if (first !== undefined) this.announce(q);
    }
    this.polls.expire(undefined, (d) => d <= now);
    this.arm();
  }

  /** The next virtual moment something changes by itself: a hidden message shows, or a long poll's wait ends. */
  nextEventAt(): number | undefined {
    const now = this.now;
    let next = this.polls.nextDeadline();
    for (const q of this.queues.values()) {
      const t = q.nextVisibleAt(now);
      if (t !== undefined && (next === undefined || t < next)) next = t;
    }
    return next;
  }

  /** How many receives are waiting in a long poll. */
  get parkedReceives(): number {
    return this.polls.size;
  }

  /** The queue's messages in order, for checkers and tests; reading them changes nothing. */
  peek(url: string): QueuedMessage[] {
    const q = this.queue(url);
    const now = this.now;
    return [...q.messages.values()].map((m) => ({
      messageId: m.messageId,
      body: m.body,
      groupId: m.groupId,
      dedupId: m.dedupId,
      receiveCount: m.receiveCount,
      state: m.visibleAt <= now ? "visible" : m.receiptNo > 0 ? "in-flight" : "delayed",
    }));
  }

  /** The queue with this ARN, if it exists (SNS subscriptions and redrive policies name queues by ARN). */
  queueByArn(arn: string): Queue | undefined {
    for (const q of this.queues.values()) if (q.arn === arn) return q;
    return undefined;
  }

  /** The queue a URL names: by account and name in its path, as SQS reads it. */
  queue(url: string | undefined): Queue {
    if (!url) throw invalidParameterValue("The request must contain the parameter QueueUrl.");
    const parts = url.split("?")[0]?.split("/").filter(Boolean) ?? [];
    const name = parts.at(-1);
    const account = parts.at(-2);
    const q = name ? this.queues.get(name) : undefined;
    if (!q || account !== this.account) throw queueDoesNotExist();
    return q;
  }

  /** Wakes the queue's parked receives, then its listeners if something is still there to take. */
  announce(q: Queue): void {
    this.polls.serve(q.name);
    if (q.hasAvailable(this.now)) for (const l of [...(this.listeners.get(q.name) ?? [])]) l();
    this.arm();
  }

  /** The send context SNS also uses to deliver into a queue. */
  sendContext() {
    return {
      now: this.now,
      nextSeq: () => ++this.seq,
      nextMessageId: this.nextId,
      announce: (q: Queue) => this.announce(q),
    };
  }

  private receiveContext() {
    return {
      now: this.now,
      queueByArn: (arn: string) => this.queueByArn(arn),
      moveToDeadLetter: (from: Queue, to: Queue, m: StoredMessage) => {
        moveToDeadLetter(from, to, m, this.now);
        this.announce(to);
      },
    };
  }

  private arm(): void {
    const timers = this.o.timers;
    if (!timers) return;
    if (this.timer !== undefined) timers.clearTimeout(this.timer);
    this.timer = undefined;
    const next = this.nextEventAt();
    if (next !== undefined) this.timer = timers.setTimeout(() => this.tick(), Math.max(0, next - this.now));
  }
}
