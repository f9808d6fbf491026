/**
 * The Lambda handlers of the app: the one list that the stacks deploy (in each Region) and that the
 * offline checks bundle and compare against. Paths are relative to the repository root, in SST's
 * `path/to/module.exportName` form; the local runtime loads the same modules.
 *
 * This file is plain data: it is imported both by the SST program and by vitest.
 */

/** The HTTP routes of the public contract that exist in AWS (never the local-only `/_local/*`). */
export type HttpRoute =
  | "POST /payments"
  | "POST /payments/resolve"
  | "GET /payments/{payment_id}"
  | "POST /payments/{payment_id}/cancel"
  | "POST /devices"
  | "DELETE /devices/{device_id}"
  | "POST /webhooks/psp"
  | "POST /webhooks/stripe";

/** The ledger stream records the outbox relay takes. */
export interface RelayRecords {
  keyPrefix: string;
  /** Also this Region's own inserts of items whose sort key starts so (journal entries carry their events). */
  ownInsertsOfSkPrefix: string;
  /**
   * Also the inserts of items whose sort key starts with one of these, from either Region (every refund attempt's
   * entry and in-flight fact).
   */
  insertsOfSkPrefixes: readonly string[];
}

/** What invokes a handler in AWS. */
export type Trigger =
  | { kind: "http"; route: HttpRoute; auth: "jwt" | "none" }
  | {
      /**
       * The ledger's stream, read by one mapping per Region (AWS recommends one reader per shard of a global table's
       * stream): its records go to the outbox relay and to Part 8's stream job, each with its own failure accounting.
       */
      kind: "ledger-stream";
      relay: RelayRecords;
      /** The stream job's records (payment rows) and the tumbling window the mapping carries its state in. */
      job: { sk: "PAYMENT"; windowS: number };
    }
  | { kind: "events-queue" }
  | { kind: "schedule"; rate: "1 minute" | "5 minutes" }
  /** A cron expression (UTC); its stack module wires the schedule with its alarms (stacks/reconcile.ts). */
  | { kind: "cron"; expression: `cron(${string})` };

/** Table access a handler is granted: read only, or read and write. */
export type TableAccess = "read" | "write";

/** What a handler may touch in its Region; the stacks turn this into IAM permissions (least privilege). */
export interface Access {
  claims?: TableAccess;
  ledger?: TableAccess;
  consumer?: TableAccess;
  /** The stream job's sink table. */
  totals?: TableAccess;
  /** Send to the events FIFO queue (only the relay and the sweeps). */
  sendEvents?: boolean;
  /** Receive from the events FIFO queue (the worker, through its subscription). */
  consumeEvents?: boolean;
  /**
   * Send to the other Region's events FIFO queue (the worker and the sweeps): a passive Region hands each event it
   * receives, and each event its events DLQ holds, over to the active Region instead of applying it.
   */
  peerEventsQueue?: "send";
  /**
   * Drain this Region's events DLQ (the sweeps only): receive, delete and extend the visibility of its messages, to
   * hand them over to the other Region's events queue.
   */
  eventsDlq?: "drain";
  /** Read the ledger table's stream and report failed batches to the relay-failures queue. */
  readLedgerStream?: boolean;
  /** Describe a batch the stream job gave up on to its own failure queue (the recompute command reads it). */
  streamJobFailures?: "send";
  /** SNS mobile push: create device endpoints, or create them and publish to them. */
  push?: "register" | "send";
  /** Send email through the Region's SES identity. */
  email?: boolean;
  /**
   * The PSP secret linked to the function (SST secret): the API key to call the PSP (PspApiKey, or StripeSecretKey on
   * a stage with PSP=stripe), or one webhook route's signing secret (PspWebhookSecret, StripeWebhookSecret), which is
   * linked only on a stage of that dialect (the other dialect's secret is not even declared there).
   */
  pspSecret?: "apiKey" | "webhookSecret" | "stripeWebhookSecret";
}

/** One handler module and how it is deployed. */
export interface HandlerSpec {
  /** PascalCase id, unique; with the Region role it names the function (e.g. `StandbyNotifyWorker`). */
  id: string;
  /** `path/to/module.exportName`, relative to the repository root. */
  handler: string;
  trigger: Trigger;
  access: Access;
  /** The Lambda timeout in seconds. */
  timeoutSeconds: number;
  /**
   * The Lambda memory in MB, which also sets the CPU: Lambda gives CPU in proportion to memory (1,769 MB is one
   * vCPU). These handlers wait on DynamoDB, SQS and the PSP, so CPU matters mostly for the cold start (loading
   * the SDK clients) and for the reconcile's comparison; each size says what it is based on.
   */
  memoryMB: number;
  /**
   * Reserved concurrency: for the async path a guarantee (a burst on the API cannot take its capacity), for a
   * webhook route a cap (a flood of events cannot take everybody's). Sized from the load figures (docs/deploying.md).
   */
  reservedConcurrency?: number;
}

/** Every handler of the app, in deployment order. */
export const handlers: readonly HandlerSpec[] = [
  {
    id: "CreatePayment",
    handler: "packages/functions/src/http/create-payment.handler",
    trigger: { kind: "http", route: "POST /payments", auth: "jwt" },
    access: { claims: "write", ledger: "write", pspSecret: "apiKey" },
    timeoutSeconds: 15,
    // 1024: on the buyer's deadline (DEADLINE_MS 5 s), where a cold start's module load is CPU-bound; about 0.6 vCPU.
    memoryMB: 1024,
  },
  {
    // A key this Region never saw is looked up at the PSP by our reference before it is voided: it needs the key.
    id: "ResolvePayment",
    handler: "packages/functions/src/http/resolve-payment.handler",
    trigger: { kind: "http", route: "POST /payments/resolve", auth: "jwt" },
    access: { claims: "write", ledger: "write", pspSecret: "apiKey" },
    timeoutSeconds: 15,
    // 1024: as CreatePayment's, on the same deadline (a PSP lookup, then a void).
    memoryMB: 1024,
  },
  {
    id: "GetPayment",
    handler: "packages/functions/src/http/get-payment.handler",
    trigger: { kind: "http", route: "GET /payments/{payment_id}", auth: "jwt" },
    access: { claims: "read", ledger: "read" },
    timeoutSeconds: 10,
    // 512: two reads, no PSP call; half of the pay path's, since a slower cold start delays no charge.
    memoryMB: 512,
  },
  {
    id: "CancelPayment",
    handler: "packages/functions/src/http/cancel-payment.handler",
    trigger: { kind: "http", route: "POST /payments/{payment_id}/cancel", auth: "jwt" },
    access: { claims: "write", ledger: "write", pspSecret: "apiKey" },
    timeoutSeconds: 15,
    // 1024: as CreatePayment's, on the same deadline (a void at the PSP).
    memoryMB: 1024,
  },
  {
    id: "RegisterDevice",
    handler: "packages/functions/src/http/register-device.handler",
    trigger: { kind: "http", route: "POST /devices", auth: "jwt" },
    access: { consumer: "write", push: "register" },
    timeoutSeconds: 10,
    // 256: one SNS call and one write, once per device and off the pay path: a slower cold start costs nobody.
    memoryMB: 256,
  },
  {
    id: "DeleteDevice",
    handler: "packages/functions/src/http/delete-device.handler",
    trigger: { kind: "http", route: "DELETE /devices/{device_id}", auth: "jwt" },
    access: { consumer: "write", push: "register" },
    timeoutSeconds: 10,
    // 256: as RegisterDevice's.
    memoryMB: 256,
  },
  {
    // The PSP authenticates with its HMAC signature (Psp-Signature), not with a user's JWT.
    id: "PspWebhook",
    handler: "packages/functions/src/http/psp-webhook.handler",
    trigger: { kind: "http", route: "POST /webhooks/psp", auth: "none" },
    access: { claims: "write", ledger: "write", pspSecret: "webhookSecret" },
    timeoutSeconds: 10,
    // 512: an HMAC check and one ledger write per event; the PSP retries a slow answer, so no deadline of ours.
    memoryMB: 512,
    // A cap: the PSP's events at the load run's 40 payments/s need about 4; a flood is refused, and the PSP retries.
    reservedConcurrency: 20,
  },
  {
    // Stripe's events (Stripe-Signature, checked by its SDK), mapped onto the same moves as /webhooks/psp.
    id: "StripeWebhook",
    handler: "packages/functions/src/http/stripe-webhook.handler",
    trigger: { kind: "http", route: "POST /webhooks/stripe", auth: "none" },
    access: { claims: "write", ledger: "write", pspSecret: "stripeWebhookSecret" },
    timeoutSeconds: 10,
    // 512: as PspWebhook's (the Stripe SDK's signature check is the same HMAC).
    memoryMB: 512,
    // A cap, as the generic webhook's: Stripe retries an event it could not deliver for up to three days.
    reservedConcurrency: 20,
  },
  {
    // The one reader of the ledger's stream in each Region: the outbox relay and the merchants' daily totals (Part 8)
    // share its mapping, which AWS recommends for a global table's stream (two readers per shard would be throttled).
    id: "LedgerStream",
    handler: "packages/functions/src/stream/ledger-stream.handler",
    // A journal entry carries its move's event (journal-and-outbox.ts); a caught-up move's event is an OUTBOX# item.
    // JOURNAL#3 (attempt 1) and JOURNAL#3#n (attempt n ≥ 2) are a refund's entries: from either Region, the relay
    // catches up a row that lost its REFUNDED write (Part 9); FACT#REFUND_PENDING[#n], a refund attempt's in-flight
    // fact, one that lost its REFUND_PENDING write to an older copy settled later (issue 40). The job's 60 s windows
    // are well inside Lambda's 900 s and 1 MB of state per shard.
    trigger: {
      kind: "ledger-stream",
      relay: {
        keyPrefix: "OUTBOX#",
        ownInsertsOfSkPrefix: "JOURNAL#",
        insertsOfSkPrefixes: ["JOURNAL#3", "FACT#REFUND_PENDING"],
      },
      job: { sk: "PAYMENT", windowS: 60 },
    },
    access: {
      ledger: "write",
      sendEvents: true,
      readLedgerStream: true,
      totals: "write",
      streamJobFailures: "send",
    },
    timeoutSeconds: 30,
    // 512: batches of up to 100 stream records, each one SQS send, and the job's window state (at most 1 MB per shard,
    // Lambda's limit); I/O-bound, the batch is a few hundred KB.
    memoryMB: 512,
    // One invocation per stream shard at a time; 10 shards is far above this table's at the load run's rate.
    reservedConcurrency: 10,
  },
  {
    id: "NotifyWorker",
    handler: "packages/functions/src/queue/notify-worker.handler",
    trigger: { kind: "events-queue" },
    access: {
      ledger: "read",
      consumer: "write",
      consumeEvents: true,
      peerEventsQueue: "send",
      push: "send",
      email: true,
    },
    // The events queue's visibility timeout is 6× this (stacks/events-queue.ts).
    timeoutSeconds: 20,
    // 512: batches of 10 events, each a read and a push or an email; I/O-bound.
    memoryMB: 512,
    // About 8 at the load run's 40 notifications/s of 200 ms each; 20 keeps room for a redelivery burst.
    reservedConcurrency: 20,
  },
  {
    id: "Resolver",
    handler: "packages/functions/src/cron/resolver.handler",
    trigger: { kind: "schedule", rate: "1 minute" },
    access: { claims: "write", ledger: "write", pspSecret: "apiKey" },
    timeoutSeconds: 55,
    // 512: a pass of PSP lookups at RESOLVER_RATE_PER_S (10/s), each waiting on the PSP.
    memoryMB: 512,
    // One pass a minute; 2 lets a slow pass overlap the next start.
    reservedConcurrency: 2,
  },
  {
    // Re-sends outbox rows the relay left behind, (MRSC mode, no TTL) deletes expired claims, and in a passive
    // Region hands what its events DLQ holds over to the active Region's events queue.
    id: "Sweeps",
    handler: "packages/functions/src/cron/sweeps.handler",
    trigger: { kind: "schedule", rate: "5 minutes" },
    access: {
      claims: "write",
      ledger: "write",
      sendEvents: true,
      peerEventsQueue: "send",
      eventsDlq: "drain",
    },
    timeoutSeconds: 120,
    // 512: pages of outbox rows and expired claims, one DynamoDB or SQS call each; I/O-bound.
    memoryMB: 512,
  },
  {
    // Nightly, 03:15 UTC: the PSP's charges of the last 25 h against the ledger, read-only. Long enough to page
    // through a day of charges and to scan the ledger (it has no index by creation time).
    id: "Reconcile",
    handler: "packages/functions/src/cron/reconcile.handler",
    trigger: { kind: "cron", expression: "cron(15 3 * * ? *)" },
    access: { ledger: "read", pspSecret: "apiKey" },
    timeoutSeconds: 300,
    // 1024: pages through a day of the PSP's charges and scans the ledger, holding both sides to compare; the most
    // memory and CPU of any handler, though still waiting on I/O most of its run.
    memoryMB: 1024,
  },
];

/** The module of a handler without its export name, e.g. `packages/functions/src/http/create-payment`. */
export function handlerModule(spec: Pick<HandlerSpec, "handler">): string {
  const dot = spec.handler.lastIndexOf(".");
  return spec.handler.slice(0, dot);
}

/** The export name of a handler, e.g. `handler`. */
export function handlerExport(spec: Pick<HandlerSpec, "handler">): string {
  return spec.handler.slice(spec.handler.lastIndexOf(".") + 1);
}

/** The source extensions SST's Node.js builder resolves a handler module with, in order. */
export const handlerExtensions = [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"] as const;
