import {
  DeleteMessageBatchCommand,
  GetQueueAttributesCommand,
  type Message,
  ReceiveMessageCommand,
  SQSClient,
} from "@aws-sdk/client-sqs";
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from "aws-lambda";
import { LOCAL_CREDENTIALS } from "../stack/regions";
import { errorText, type Invocation, invokeHandler, reportedFailures } from "./invoke-handler";
import type { Poller } from "./poller";
import { type QueueSource, toSqsRecord } from "./sqs-record";
import { sleep, waitUntil } from "./timing";

// biome-ignore lint/suspicious/noConfusingVoidType: a handler may return nothing, as aws-lambda's SQSHandler allows.
type SqsResult = void | SQSBatchResponse;

/** An SQS-triggered Lambda handler; it may report partial failures. */
export type SqsHandler = (event: SQSEvent, context: Context) => Promise<SqsResult>;

/** The settings of a local SQS event source mapping; defaults are Lambda's, except a short long-poll wait. */
export interface SqsPollerOptions {
  /** The function's name, used in its Lambda context and in log lines. */
  name: string;
  endpoint: string;
  region: string;
  queueUrl: string;
  handler: SqsHandler;
  batchSize?: number;
  /** The ReceiveMessage long-poll wait; it bounds how long stop() takes. */
  waitTimeSeconds?: number;
  /** How many batches may be in flight at once, each from its own receive loop. */
  concurrency?: number;
  timeoutMs?: number;
  /** While this says true (the local Region is down), nothing is received. */
  paused?: () => boolean;
}

type Settings = Required<Omit<SqsPollerOptions, "paused">> & Pick<SqsPollerOptions, "paused">;

interface ReceiveLoop {
  busy: boolean;
  error: string | undefined;
  /** When the latest receive that came back empty started (performance.now()); idle() compares against it. */
  emptyReceiveStartedAt: number;
  done: Promise<void>;
}

/** ReceiveMessage's own per-call limit. */
const RECEIVE_MAX = 10;
/** The pause after an empty receive when long polling is off, so that the loop does not spin. */
const EMPTY_PAUSE_MS = 50;
/** The pause after a failed receive, so that a stopped emulator is not hammered. */
const ERROR_PAUSE_MS = 500;

/** Starts doing locally what a Lambda event source mapping on an SQS queue does. */
export async function startSqsPoller(options: SqsPollerOptions): Promise<Poller> {
  const o: Settings = {
    ...options,
    batchSize: options.batchSize ?? 10,
    waitTimeSeconds: options.waitTimeSeconds ?? 1,
    concurrency: options.concurrency ?? 1,
    timeoutMs: options.timeoutMs ?? 30_000,
  };
  const sqs = new SQSClient({ endpoint: o.endpoint, region: o.region, credentials: LOCAL_CREDENTIALS });
  try {
    const { Attributes } = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: o.queueUrl, AttributeNames: ["QueueArn"] }),
    );
    if (!Attributes?.QueueArn) throw new Error(`no QueueArn for ${o.queueUrl}`);
    return new QueueMapping(o, sqs, { queueArn: Attributes.QueueArn, region: o.region });
  } catch (err) {
    sqs.destroy();
    throw err;
  }
}

class QueueMapping implements Poller {
  private readonly abort = new AbortController();
  private readonly loops: ReceiveLoop[];

  constructor(
    private readonly o: Settings,
    private readonly sqs: SQSClient,
    private readonly source: QueueSource,
  ) {
    this.loops = Array.from({ length: Math.max(1, o.concurrency) }, () => {
      const loop: ReceiveLoop = {
        busy: false,
        error: undefined,
        emptyReceiveStartedAt: Number.NEGATIVE_INFINITY,
        done: Promise.resolve(),
      };
      loop.done = this.run(loop);
      return loop;
    });
  }

  async stop(): Promise<void> {
    // A receive under way is not aborted: the emulator would still hide what it took until the visibility timeout.
    this.abort.abort();
    await Promise.all(this.loops.map((l) => l.done));
    this.sqs.destroy();
  }

  healthy(): boolean {
    return !this.abort.signal.aborted && this.loops.every((l) => l.error === undefined);
  }

  async idle(): Promise<void> {
    const since = performance.now();
    await waitUntil(
      () => this.abort.signal.aborted || this.loops.every((l) => !l.busy && l.emptyReceiveStartedAt >= since),
    );
  }

  private async run(loop: ReceiveLoop): Promise<void> {
    const signal = this.abort.signal;
    while (!signal.aborted) {
      if (this.o.paused?.()) {
        await sleep(EMPTY_PAUSE_MS, signal);
        continue;
      }
      const started = performance.now();
      try {
        const messages = await this.receive();
        loop.error = undefined;
        if (messages.length === 0) {
          loop.emptyReceiveStartedAt = started;
          if (this.o.waitTimeSeconds === 0) await sleep(EMPTY_PAUSE_MS, signal);
          continue;
        }
        loop.busy = true;
        await this.process(messages).finally(() => {
          loop.busy = false;
        });
      } catch (err) {
        loop.error = errorText(err);
        this.log(`ReceiveMessage failed: ${loop.error}`);
        await sleep(ERROR_PAUSE_MS, signal);
      }
    }
  }

  /** Fills one batch: a long poll first, then immediate receives while each call came back full. */
  private async receive(): Promise<Message[]> {
    const batch: Message[] = [];
    let waitTimeSeconds = this.o.waitTimeSeconds;
    while (batch.length < this.o.batchSize) {
      const want = Math.min(RECEIVE_MAX, this.o.batchSize - batch.length);
      const got = await this.receiveOnce(want, waitTimeSeconds, batch.length > 0);
      batch.push(...got);
      if (got.length < want) break;
      waitTimeSeconds = 0;
    }
    return batch;
  }

  private async receiveOnce(max: number, waitTimeSeconds: number, holding: boolean): Promise<Message[]> {
    try {
      const out = await this.sqs.send(
        new ReceiveMessageCommand({
          QueueUrl: this.o.queueUrl,
          MaxNumberOfMessages: max,
          WaitTimeSeconds: waitTimeSeconds,
          AttributeNames: ["All"],
          MessageSystemAttributeNames: ["All"],
          MessageAttributeNames: ["All"],
        }),
      );
      return out.Messages ?? [];
    } catch (err) {
      // With messages already in hand, deliver those rather than leave them hidden until their timeout.
      if (holding) return [];
      throw err;
    }
  }

  /** Invokes the function once and deletes what it processed, leaving the rest to reappear. */
  private async process(messages: Message[]): Promise<void> {
    const receivedAt = Date.now();
    const records = messages.map((m) => toSqsRecord(m, this.source, receivedAt));
    const invocation = await invokeHandler(
      this.o.handler,
      { Records: records },
      this.o.name,
      this.o.timeoutMs,
    );
    const failed = failedMessageIds(records, invocation);
    if (failed === "all") {
      const reason = invocation.ok ? "batchItemFailures named an unknown itemIdentifier" : invocation.error;
      this.log(`batch of ${records.length} failed; left for redelivery: ${reason}`);
      return;
    }
    await this.delete(records.filter((r) => !failed.has(r.messageId)));
  }

  private async delete(records: SQSRecord[]): Promise<void> {
    for (let i = 0; i < records.length; i += RECEIVE_MAX) {
      const chunk = records.slice(i, i + RECEIVE_MAX);
      const entries = chunk.map((r, n) => ({ Id: String(n), ReceiptHandle: r.receiptHandle }));
      try {
        const out = await this.sqs.send(
          new DeleteMessageBatchCommand({ QueueUrl: this.o.queueUrl, Entries: entries }),
        );
        for (const f of out.Failed ?? [])
          this.log(`DeleteMessageBatch entry ${f.Id} failed: ${f.Code} ${f.Message}`);
      } catch (err) {
        // The messages reappear after their visibility timeout: delivery stays at least once.
        this.log(`DeleteMessageBatch failed: ${errorText(err)}`);
      }
    }
  }

  private log(message: string): void {
    console.error(`[sqs-poller ${this.o.name}] ${message}`);
  }
}

/**
 * The messages to leave on the queue after an invocation: "all" when it failed or named an item that was not in
 * the batch (Lambda then fails the whole batch), else the ones it reported.
 */
function failedMessageIds(records: SQSRecord[], invocation: Invocation<unknown>): Set<string> | "all" {
  if (!invocation.ok) return "all";
  const reported = reportedFailures(invocation.result);
  if (!reported) return new Set();
  const ids = new Set(records.map((r) => r.messageId));
  return reported.every((id) => ids.has(id)) ? new Set(reported) : "all";
}
