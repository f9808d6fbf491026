/**
 * The invariants of the deployed system, as pure functions over a Pulumi-mocks capture of the SST app.
 * Each check returns the list of violations it found (empty when the property holds), so that a test can
 * also feed it a deliberately broken capture and watch it object.
 */
import { type HandlerSpec, handlers } from "../../../stacks/handlers";
import type { Capture, CapturedResource, Json, JsonObject } from "./capture";
import { controlAuthority } from "./control-invariant";
import { onCallDashboards } from "./dashboard-invariant";
import { dnsRecords } from "./dns-invariant";
import { eventsQueueAtScale } from "./events-queue-invariant";
import { allowedResources, isAllowed, type PolicyDocument } from "./iam";
import { arr, obj, str } from "./json";
import { lambdaRuntime } from "./lambda-runtime-invariant";
import {
  failureQueuePerConsumer,
  filtersWithinQuota,
  oneStreamReader,
  streamIteratorAge,
} from "./ledger-stream-invariant";
import { onCallAlarms } from "./on-call-invariant";
import { operatorOutputs } from "./operator-invariant";
import { eventsDlqDrain, peerEventsQueue, peerQueue } from "./peer-queue-invariant";
import { pspSecrets } from "./psp-secrets-invariant";
import { nightlyReconcile } from "./reconcile-invariant";
import { replicationAlarms } from "./replication-alarm-invariant";
import { scheduledRetriesOff } from "./scheduled-retries-invariant";
import { signalAlarms } from "./signal-alarms-invariant";
import { throttlesAndHeadroom } from "./throttle-invariant";

/** What the test demands of a run (from the scenario's settings). */
export interface Expected {
  regions: { primary: string; standby: string; witness: string };
  claimMode: "home" | "mrsc";
  controlMode: "mrsc" | "single-region";
  /** The Region the authority's first item names (ACTIVE_REGION). */
  activeRegion: Role;
  production: boolean;
  jwt: { issuer: string; audience: string };
  emailSender: string;
  /** The stage's PSP dialect (PSP): which secrets exist, which webhook route is linked to its signing secret. */
  psp: "generic" | "stripe";
  /** The values the scenario set for the dialect's PSP secrets (to find them wherever they leak). */
  pspSecrets: { apiKey: string; webhookSecret: string };
  /** Who the scenario said the on-call topics page (ONCALL_EMAIL, ONCALL_HTTPS_URL). */
  onCall: { email?: string; httpsUrl?: string };
}

type Role = "primary" | "standby";
const ROLES: Role[] = ["primary", "standby"];

/** Contract constants the checks hold the stacks to (not read from the stacks). */
export const CONTRACT = {
  runtime: "nodejs22.x",
  maxReceiveCount: 5,
  workerBatchSize: 10,
  relay: {
    batchSize: 100,
    /** The relay shares the job's tumbling-window mapping; its failures are the batch's, so halving finds nothing. */
    bisect: false,
    /** Retried until it succeeds (issue 40): an unreadable authority fails the batch rather than drop it. */
    maximumRetryAttempts: -1,
    maximumRecordAgeInSeconds: -1,
    keyPrefix: "OUTBOX#",
    journalSkPrefix: "JOURNAL#",
    /**
     * A refund's journal entries: `JOURNAL#3` for attempt 1, `JOURNAL#3#n` for attempt n ≥ 2 (journal-and-outbox.ts),
     * and its in-flight facts, `FACT#REFUND_PENDING[#n]` (refund-in-flight-facts.ts).
     */
    refundJournalSkPrefixes: ["JOURNAL#3", "FACT#REFUND_PENDING"],
  },
  unauthenticatedRoutes: ["POST /webhooks/psp", "POST /webhooks/stripe"],
  schedules: { Resolver: "rate(1 minute)", Sweeps: "rate(5 minutes)" },
  environment: [
    "CONTROL_TABLE",
    "CLAIM_TABLE",
    "LEDGER_TABLE",
    "CONSUMER_TABLE",
    "EVENTS_QUEUE_URL",
    "EVENTS_DLQ_URL",
    "CLAIM_MODE",
    "DEADLINE_MS",
    "KEY_WINDOW_S",
    "PSP_RATE_PER_S",
    "PSP_ENDPOINT_RATE_PER_S",
    "RESOLVER_RATE_PER_S",
    "PSP",
    "PUSH_APNS_APP_ARN",
    "PUSH_FCM_APP_ARN",
    "EMAIL_FROM",
    "REGION_ROLE",
  ],
  tunables: {
    DEADLINE_MS: "5000",
    KEY_WINDOW_S: "3600",
    PSP_RATE_PER_S: "90",
    PSP_ENDPOINT_RATE_PER_S: "22",
    RESOLVER_RATE_PER_S: "10",
    // The act window's longest acting timeout (Sweeps), from stacks/handlers.ts.
    FUNCTION_TIMEOUT_MS: "120000",
  },
} as const;

const TABLE_WRITES = [
  "dynamodb:PutItem",
  "dynamodb:UpdateItem",
  "dynamodb:DeleteItem",
  "dynamodb:BatchWriteItem",
  "dynamodb:PartiQLInsert",
  "dynamodb:PartiQLUpdate",
  "dynamodb:PartiQLDelete",
];
const TABLE_READS = ["dynamodb:GetItem", "dynamodb:Query"];
const BASIC_EXECUTION = "arn:aws:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole";

const spec = (id: string): HandlerSpec => {
  const found = handlers.find((h) => h.id === id);
  if (!found) throw new Error(`no handler ${id} in stacks/handlers.ts`);
  return found;
};
const byTrigger = (kind: HandlerSpec["trigger"]["kind"]) => handlers.filter((h) => h.trigger.kind === kind);

/** Lookups over a capture: providers, Regions, ARNs, functions and their roles. */
export class View {
  private readonly arns = new Map<string, CapturedResource>();
  private readonly providerRegions = new Map<string, string>();
  private readonly policyCache = new Map<CapturedResource, PolicyDocument[]>();

  constructor(
    readonly capture: Capture,
    readonly expected: Expected,
  ) {
    for (const r of capture.resources) {
      const arn = str(r.state.arn);
      if (r.custom && arn && !this.arns.has(arn)) this.arns.set(arn, r);
      if (r.type.startsWith("pulumi:providers:"))
        this.providerRegions.set(r.name, str(r.inputs.region) ?? "(unknown)");
    }
  }

  ofType(type: string): CapturedResource[] {
    return this.capture.resources.filter((r) => r.type === type);
  }

  /** The provider a resource uses: its logical name and Region, or undefined for the default provider. */
  providerOf(r: CapturedResource): { name: string; region: string } | undefined {
    const parts = r.provider.split("::");
    if (parts.length < 5) return undefined;
    const name = parts[parts.length - 2] ?? "";
    return { name, region: this.providerRegions.get(name) ?? "(unknown)" };
  }

  /** The Region a resource lives in: its own `region` argument, else its provider's. */
  regionOf(r: CapturedResource): string | undefined {
    return str(r.inputs.region) ?? this.providerOf(r)?.region;
  }

  region(role: Role): string {
    return this.expected.regions[role];
  }

  byArn(arn: string | undefined): CapturedResource | undefined {
    return arn === undefined ? undefined : this.arns.get(arn);
  }

  functionsIn(role: Role): CapturedResource[] {
    return this.ofType("aws:lambda/function:Function").filter((f) => this.regionOf(f) === this.region(role));
  }

  /** The function of a handler in a Region (undefined unless exactly one). */
  fn(role: Role, id: string): CapturedResource | undefined {
    const found = this.functionsIn(role).filter((f) => f.inputs.handler === spec(id).handler);
    return found.length === 1 ? found[0] : undefined;
  }

  env(f: CapturedResource): Record<string, string> {
    const vars = obj(obj(f.inputs.environment).variables);
    return Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, String(v)]));
  }

  /** A Region's value of an environment variable, if all its functions agree on it. */
  regionEnv(role: Role, name: string): string | undefined {
    const values = new Set(this.functionsIn(role).map((f) => this.env(f)[name]));
    return values.size === 1 ? [...values][0] : undefined;
  }

  /** The links SST built into a function's bundle (sealed in its resource.enc), or undefined if it was not built. */
  linksOf(f: CapturedResource): JsonObject | undefined {
    return this.capture.builds.find((b) => `${b.functionID}Function` === f.name)?.links;
  }

  role(f: CapturedResource): CapturedResource | undefined {
    return this.byArn(str(f.inputs.role));
  }

  policies(f: CapturedResource): PolicyDocument[] {
    let docs = this.policyCache.get(f);
    if (!docs) {
      docs = arr(this.role(f)?.inputs.inlinePolicies).map(
        (p) => JSON.parse(String(obj(p).policy)) as PolicyDocument,
      );
      this.policyCache.set(f, docs);
    }
    return docs;
  }

  can(f: CapturedResource, action: string, resource: string): boolean {
    return isAllowed(this.policies(f), action, resource);
  }

  table(name: string | undefined): CapturedResource | undefined {
    return this.ofType("aws:dynamodb/table:Table").find((t) => name !== undefined && t.state.name === name);
  }

  /** The ARN and stream ARN of a table as seen from a Region (the replica's in a replica Region). */
  tableIn(role: Role, envName: string): { table?: CapturedResource; arn?: string; streamArn?: string } {
    const table = this.table(this.regionEnv(role, envName));
    if (!table) return {};
    if (this.regionOf(table) === this.region(role)) {
      return { table, arn: str(table.state.arn), streamArn: str(table.state.streamArn) };
    }
    const replica = arr(table.state.replicas)
      .map(obj)
      .find((r) => r.regionName === this.region(role));
    return { table, arn: str(replica?.arn), streamArn: str(replica?.streamArn) };
  }

  queueByUrl(url: string | undefined): CapturedResource | undefined {
    return this.ofType("aws:sqs/queue:Queue").find((q) => url !== undefined && q.state.url === url);
  }
}

/** A named invariant. */
export interface Invariant {
  name: string;
  check: (v: View) => string[];
}

/** Every resource is in the intended Region through an explicit provider; standby parts use the standby provider. */
export const regionsAndProviders: Invariant = {
  name: "each resource's Region and provider",
  check(v) {
    const out: string[] = [];
    const providers = v.capture.resources.filter((r) => r.type === "pulumi:providers:aws");
    const regions = providers.map((p) => str(p.inputs.region)).sort();
    // A third provider only for the single-region authority, which lives in WITNESS_REGION.
    const single = v.expected.controlMode === "single-region";
    const { primary, standby, witness } = v.expected.regions;
    const want = (single ? [primary, standby, witness] : [primary, standby]).sort();
    if (JSON.stringify(regions) !== JSON.stringify(want)) {
      out.push(`aws providers are in ${regions.join(", ")}, expected exactly ${want.join(", ")}`);
    }
    for (const r of v.capture.resources) {
      if (!r.custom || !r.type.startsWith("aws:")) continue;
      const provider = v.providerOf(r);
      if (!provider) {
        out.push(`${r.type} ${r.name} uses the default provider, not the primary or standby provider`);
        continue;
      }
      const role = r.name.startsWith("Standby")
        ? "standby"
        : r.name.startsWith("Witness")
          ? "witness"
          : "primary";
      const region = v.regionOf(r);
      if (region !== v.expected.regions[role]) {
        out.push(
          `${r.type} ${r.name} is in ${region} (provider ${provider.name}), expected the ${role} Region ${v.expected.regions[role]}`,
        );
      }
    }
    return out;
  },
};

/** Each Region runs every handler of the manifest once, on nodejs22.x, with the plain environment the handlers read. */
export const handlersDeployed: Invariant = {
  name: "the same handler modules in both Regions, with their environment",
  check(v) {
    const out: string[] = [];
    const known = new Set(handlers.map((h) => h.handler));
    for (const role of ROLES) {
      const fns = v.functionsIn(role);
      for (const f of fns) {
        if (!known.has(String(f.inputs.handler)))
          out.push(`${role}: function ${f.name} runs ${f.inputs.handler}, not a manifest handler`);
      }
      for (const h of handlers) {
        const matching = fns.filter((f) => f.inputs.handler === h.handler);
        if (matching.length !== 1) {
          out.push(`${role}: ${matching.length} functions run ${h.handler}, expected 1`);
          continue;
        }
        const f = matching[0] as CapturedResource;
        if (f.inputs.runtime !== CONTRACT.runtime) out.push(`${role}: ${h.id} runs on ${f.inputs.runtime}`);
        const env = v.env(f);
        for (const name of CONTRACT.environment) {
          if (!env[name]) out.push(`${role}: ${h.id} has no ${name}`);
        }
        if (env.REGION_ROLE !== role) out.push(`${role}: ${h.id} has REGION_ROLE=${env.REGION_ROLE}`);
        // Which Region is active is data in the authority, never a variable (controlAuthority checks the table).
        if ("REGION_ACTIVE" in env) out.push(`${role}: ${h.id} has REGION_ACTIVE, a deploy-time switch`);
        if (env.CLAIM_MODE !== v.expected.claimMode)
          out.push(`${role}: ${h.id} has CLAIM_MODE=${env.CLAIM_MODE}`);
        if (env.PSP !== v.expected.psp)
          out.push(`${role}: ${h.id} has PSP=${env.PSP}, expected ${v.expected.psp}`);
        // A generic stage names its PSP (the PspUrl secret); a Stripe stage talks to Stripe's API, the handlers' default.
        if (v.expected.psp === "generic" && !env.PSP_URL) out.push(`${role}: ${h.id} has no PSP_URL`);
        if (v.expected.psp === "stripe" && "PSP_URL" in env)
          out.push(`${role}: ${h.id} has PSP_URL on a Stripe stage (its URL is Stripe's API)`);
        for (const [k, want] of Object.entries(CONTRACT.tunables)) {
          if (env[k] !== want) out.push(`${role}: ${h.id} has ${k}=${env[k]}, expected ${want}`);
        }
        if (env.EMAIL_FROM && !env.EMAIL_FROM.includes("@"))
          out.push(`${role}: ${h.id} EMAIL_FROM is not an address`);
        const queue = v.queueByUrl(env.EVENTS_QUEUE_URL);
        if (!queue || v.regionOf(queue) !== v.region(role)) {
          out.push(`${role}: ${h.id} EVENTS_QUEUE_URL is not a queue in ${v.region(role)}`);
        }
        for (const key of ["PUSH_APNS_APP_ARN", "PUSH_FCM_APP_ARN"]) {
          const app = v.byArn(env[key]);
          if (
            app?.type !== "aws:sns/platformApplication:PlatformApplication" ||
            v.regionOf(app) !== v.region(role)
          ) {
            out.push(`${role}: ${h.id} ${key} is not a platform application in ${v.region(role)}`);
          }
        }
        for (const key of ["CLAIM_TABLE", "LEDGER_TABLE", "CONSUMER_TABLE"]) {
          if (!v.tableIn(role, key).arn)
            out.push(`${role}: ${h.id} ${key} is not a table (or replica) in ${v.region(role)}`);
        }
      }
      for (const key of ["EVENTS_QUEUE_URL", "CLAIM_TABLE", "LEDGER_TABLE", "CONSUMER_TABLE"]) {
        if (!v.regionEnv(role, key)) out.push(`${role}: the functions disagree on ${key}`);
      }
    }
    return out;
  },
};

/** The events queue is FIFO with a FIFO DLQ after 5 receives, in each Region (its scale: events-queue-invariant.ts). */
export const queues: Invariant = {
  name: "FIFO events queue, FIFO DLQ and redrive count",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const q = v.queueByUrl(v.regionEnv(role, "EVENTS_QUEUE_URL"));
      if (!q) {
        out.push(`${role}: no events queue`);
        continue;
      }
      if (q.inputs.fifoQueue !== true || !String(q.state.name).endsWith(".fifo"))
        out.push(`${role}: events queue is not FIFO`);
      if (q.inputs.contentBasedDeduplication === true)
        out.push(`${role}: events queue deduplicates by content, not by event id`);
      const redrive = obj(
        q.inputs.redrivePolicy ? (JSON.parse(String(q.inputs.redrivePolicy)) as Json) : null,
      );
      if (redrive.maxReceiveCount !== CONTRACT.maxReceiveCount) {
        out.push(
          `${role}: redrive maxReceiveCount is ${redrive.maxReceiveCount}, expected ${CONTRACT.maxReceiveCount}`,
        );
      }
      const dlq = v.byArn(str(redrive.deadLetterTargetArn));
      if (!dlq) {
        out.push(`${role}: events queue has no dead-letter queue`);
      } else {
        if (dlq.inputs.fifoQueue !== true) out.push(`${role}: the DLQ of a FIFO queue is not FIFO`);
        if (v.regionOf(dlq) !== v.region(role)) out.push(`${role}: the DLQ is in ${v.regionOf(dlq)}`);
      }
      const worker = v.fn(role, "NotifyWorker");
      if (worker && Number(worker.inputs.timeout) > Number(q.inputs.visibilityTimeoutSeconds)) {
        out.push(`${role}: the worker's timeout exceeds the queue's visibility timeout`);
      }
    }
    return out;
  },
};

/** The worker consumes its Region's events queue in batches of 10 and reports partial batch failures. */
export const workerSubscription: Invariant = {
  name: "worker batch settings and partial responses",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const worker = v.fn(role, "NotifyWorker");
      const queue = v.queueByUrl(v.regionEnv(role, "EVENTS_QUEUE_URL"));
      const esms = v
        .ofType("aws:lambda/eventSourceMapping:EventSourceMapping")
        .filter((m) => queue && m.inputs.eventSourceArn === queue.state.arn);
      if (!worker || esms.length !== 1) {
        out.push(
          `${role}: expected one subscription of the worker to the events queue, found ${esms.length}`,
        );
        continue;
      }
      const m = esms[0] as CapturedResource;
      if (m.inputs.functionName !== worker.state.arn)
        out.push(`${role}: the events queue does not invoke the worker`);
      if (v.regionOf(m) !== v.region(role))
        out.push(`${role}: the worker subscription is in ${v.regionOf(m)}`);
      if (m.inputs.batchSize !== CONTRACT.workerBatchSize)
        out.push(`${role}: worker batch size ${m.inputs.batchSize}`);
      if (!arr(m.inputs.functionResponseTypes).includes("ReportBatchItemFailures")) {
        out.push(`${role}: the worker subscription does not report partial batch failures`);
      }
    }
    return out;
  },
};

/**
 * The relay's part of the one ledger stream mapping: its Region's ledger stream (the replica's in the standby), retried
 * until it succeeds, a failure queue, and the relay's filters.
 */
export const relaySubscription: Invariant = {
  name: "relay stream subscription",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const relay = v.fn(role, "LedgerStream");
      const esms = v
        .ofType("aws:lambda/eventSourceMapping:EventSourceMapping")
        .filter((m) => relay && m.inputs.functionName === relay.state.arn);
      if (!relay || esms.length !== 1) {
        out.push(`${role}: expected one stream subscription of the relay, found ${esms.length}`);
        continue;
      }
      const m = esms[0] as CapturedResource;
      const ledger = v.tableIn(role, "LEDGER_TABLE");
      if (!ledger.streamArn || m.inputs.eventSourceArn !== ledger.streamArn) {
        out.push(
          `${role}: the relay reads ${m.inputs.eventSourceArn}, not the ledger stream in ${v.region(role)}`,
        );
      }
      if (v.regionOf(m) !== v.region(role))
        out.push(`${role}: the relay subscription is in ${v.regionOf(m)}`);
      if (m.inputs.batchSize !== CONTRACT.relay.batchSize)
        out.push(`${role}: relay batch size ${m.inputs.batchSize}`);
      if (m.inputs.bisectBatchOnFunctionError !== CONTRACT.relay.bisect)
        out.push(
          `${role}: relay bisect-on-error is ${m.inputs.bisectBatchOnFunctionError}, expected ${CONTRACT.relay.bisect}`,
        );
      if (m.inputs.maximumRetryAttempts !== CONTRACT.relay.maximumRetryAttempts) {
        out.push(
          `${role}: relay retries ${m.inputs.maximumRetryAttempts} times, expected ${CONTRACT.relay.maximumRetryAttempts}`,
        );
      }
      if (m.inputs.maximumRecordAgeInSeconds !== CONTRACT.relay.maximumRecordAgeInSeconds) {
        out.push(
          `${role}: relay gives records up after ${m.inputs.maximumRecordAgeInSeconds} s, expected ${CONTRACT.relay.maximumRecordAgeInSeconds}`,
        );
      }
      const dest = v.byArn(str(obj(obj(m.inputs.destinationConfig).onFailure).destinationArn));
      if (
        dest?.type !== "aws:sqs/queue:Queue" ||
        dest.inputs.fifoQueue === true ||
        v.regionOf(dest) !== v.region(role)
      ) {
        out.push(`${role}: the relay's on-failure destination is not a standard queue in ${v.region(role)}`);
      }
      const keysOf = (p: Json) => obj(obj(obj(p).dynamodb).Keys);
      // The stream job's filter (payment rows, an exact sort key) is the job's check's.
      const patterns = arr(obj(m.inputs.filterCriteria).filters)
        .map((f) => JSON.parse(String(obj(f).pattern)) as Json)
        .filter((p) => typeof arr(obj(keysOf(p).sk).S)[0] !== "string");
      const outbox = patterns.filter((p) => keysOf(p).pk !== undefined);
      const prefixes = outbox.map((p) => str(obj(arr(obj(keysOf(p).pk).S)[0]).prefix));
      if (prefixes.length !== 1 || prefixes[0] !== CONTRACT.relay.keyPrefix) {
        out.push(`${role}: the relay is not filtered to ${CONTRACT.relay.keyPrefix} keys`);
      }
      // A replica's stream carries the other Region's writes: each relay maps only its own Region's outbox items.
      const origins = outbox.map((p) => arr(obj(obj(obj(obj(p).dynamodb).NewImage).origin_region).S));
      if (origins.length !== 1 || JSON.stringify(origins[0]) !== JSON.stringify([role])) {
        out.push(`${role}: the relay is not filtered to outbox items that ${role} wrote (origin_region)`);
      }
      // ...this Region's own journal entries, which carry the events of their moves (journal-and-outbox.ts)...
      const skOf = (p: Json) => arr(obj(keysOf(p).sk).S);
      const ownOnly = (p: Json) => obj(obj(p).dynamodb).NewImage !== undefined;
      const entries = patterns.filter((p) => keysOf(p).pk === undefined && ownOnly(p));
      const entryShape = entries.map((p) =>
        JSON.stringify([
          obj(p).eventName,
          str(obj(skOf(p)[0]).prefix),
          arr(obj(obj(obj(obj(p).dynamodb).NewImage).origin_region).S),
        ]),
      );
      if (
        entryShape.length !== 1 ||
        entryShape[0] !== JSON.stringify([["INSERT"], CONTRACT.relay.journalSkPrefix, [role]])
      ) {
        out.push(
          `${role}: the relay does not take the inserts of its own ${CONTRACT.relay.journalSkPrefix} entries`,
        );
      }
      // ...and every refund attempt's journal entry from either Region, so that a row that lost its REFUNDED write
      // catches up.
      const journal = patterns.filter((p) => keysOf(p).pk === undefined && !ownOnly(p));
      const sks = journal.map((p) => JSON.stringify([obj(p).eventName, skOf(p)]));
      const refundPrefixes = CONTRACT.relay.refundJournalSkPrefixes;
      const want = JSON.stringify([["INSERT"], refundPrefixes.map((prefix) => ({ prefix }))]);
      if (sks.length !== 1 || sks[0] !== want) {
        out.push(
          `${role}: the relay does not take the inserts of ${refundPrefixes.join("…, ")}… from either Region`,
        );
      }
    }
    return out;
  },
};

/**
 * Part 8's stream job in each Region: a tumbling-window mapping (1 to 900 s, Lambda's limit) on that Region's ledger
 * stream, payment rows only, an on-failure queue; its sink a table of that Region alone with the sparse `tags`
 * index (bpk, btag), which the job may write and no other function may.
 */
export const streamJob: Invariant = {
  name: "stream job window, stream and sink",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const job = v.fn(role, "LedgerStream");
      if (!job) {
        out.push(`${role}: no stream job function`);
        continue;
      }
      const esms = v
        .ofType("aws:lambda/eventSourceMapping:EventSourceMapping")
        .filter((m) => m.inputs.functionName === job.state.arn);
      const m = esms[0];
      if (!m || esms.length !== 1) {
        out.push(`${role}: expected one mapping of the stream job, found ${esms.length}`);
        continue;
      }
      const window = Number(m.inputs.tumblingWindowInSeconds);
      if (!(window >= 1 && window <= 900))
        out.push(`${role}: the stream job's window is ${window} s, not 1 to 900`);
      const ledger = v.tableIn(role, "LEDGER_TABLE");
      if (!ledger.streamArn || m.inputs.eventSourceArn !== ledger.streamArn)
        out.push(
          `${role}: the stream job reads ${m.inputs.eventSourceArn}, not the ledger stream in ${v.region(role)}`,
        );
      const patterns = arr(obj(m.inputs.filterCriteria).filters).map((f) => String(obj(f).pattern));
      if (!patterns.includes('{"dynamodb":{"Keys":{"sk":{"S":["PAYMENT"]}}}}'))
        out.push(`${role}: the stream job is not given the payment rows`);
      if (!obj(obj(m.inputs.destinationConfig).onFailure).destinationArn)
        out.push(`${role}: the stream job's mapping has no on-failure destination`);
      const sink = v.tableIn(role, "TOTALS_TABLE");
      if (!sink.table || v.regionOf(sink.table) !== v.region(role)) {
        out.push(`${role}: no totals table of its own in ${v.region(role)}`);
        continue;
      }
      if (arr(sink.table.inputs.replicas).length > 0) out.push(`${role}: the totals table is replicated`);
      const tags = arr(sink.table.inputs.globalSecondaryIndexes)
        .map(obj)
        .find((g) => g.name === "tags");
      if (tags?.hashKey !== "bpk" || tags.rangeKey !== "btag")
        out.push(`${role}: the totals table has no tags index (bpk, btag)`);
      if (!v.can(job, "dynamodb:PutItem", String(sink.arn)))
        out.push(`${role}: the stream job may not write its sink`);
      for (const h of handlers.filter((x) => x.id !== "LedgerStream")) {
        const f = v.fn(role, h.id);
        if (f && v.can(f, "dynamodb:PutItem", String(sink.arn)))
          out.push(`${role}: ${h.id} may write the totals table`);
      }
    }
    return out;
  },
};

/** The ledger: pk/sk, NEW_AND_OLD_IMAGES stream, gsi1, global table replica (MREC) in the standby Region. */
export const ledgerTable: Invariant = {
  name: "ledger stream view type, GSI and replica",
  check(v) {
    const out: string[] = [];
    const { table } = v.tableIn("primary", "LEDGER_TABLE");
    if (!table) return ["no ledger table"];
    if (v.regionOf(table) !== v.region("primary")) out.push(`the ledger is in ${v.regionOf(table)}`);
    if (table.inputs.hashKey !== "pk" || table.inputs.rangeKey !== "sk")
      out.push("the ledger's keys are not pk/sk");
    if (table.inputs.streamEnabled !== true || table.inputs.streamViewType !== "NEW_AND_OLD_IMAGES") {
      out.push(`the ledger stream is ${table.inputs.streamViewType}, expected NEW_AND_OLD_IMAGES`);
    }
    const gsi = arr(table.inputs.globalSecondaryIndexes)
      .map(obj)
      .find((g) => g.name === "gsi1");
    if (gsi?.hashKey !== "gsi1pk" || gsi.rangeKey !== "gsi1sk")
      out.push("the ledger has no gsi1 (gsi1pk, gsi1sk)");
    out.push(...replicaProblems("ledger", table, v, "EVENTUAL"));
    return out;
  },
};

/** The consumer table: pk/sk, TTL on expires_at, global table replica (MREC) in the standby Region. */
export const consumerTable: Invariant = {
  name: "consumer table TTL and replica",
  check(v) {
    const out: string[] = [];
    const { table } = v.tableIn("primary", "CONSUMER_TABLE");
    if (!table) return ["no consumer table"];
    if (table.inputs.hashKey !== "pk" || table.inputs.rangeKey !== "sk")
      out.push("the consumer table's keys are not pk/sk");
    const ttl = obj(table.inputs.ttl);
    if (ttl.attributeName !== "expires_at" || ttl.enabled !== true)
      out.push("the consumer table has no TTL on expires_at");
    out.push(...replicaProblems("consumer", table, v, "EVENTUAL"));
    return out;
  },
};

function replicaProblems(
  label: string,
  table: CapturedResource,
  v: View,
  mode: "EVENTUAL" | "STRONG",
): string[] {
  const out: string[] = [];
  const replicas = arr(table.inputs.replicas).map(obj);
  if (replicas.length !== 1 || replicas[0]?.regionName !== v.region("standby")) {
    out.push(
      `${label}: expected one replica in ${v.region("standby")}, found ${replicas.map((r) => r.regionName).join(", ") || "none"}`,
    );
  }
  const strong = replicas.some((r) => r.consistencyMode === "STRONG");
  if (mode === "STRONG" && !strong) out.push(`${label}: the replica is not STRONG (MRSC)`);
  if (mode === "EVENTUAL" && strong) out.push(`${label}: the replica is STRONG, expected an MREC replica`);
  return out;
}

/** Claims: per-Region tables with TTL (home) or one MRSC table with a STRONG replica and a witness (mrsc). */
export const claimTables: Invariant = {
  name: "claim table per mode (MRSC replica + witness, or per-Region TTL)",
  check(v) {
    const out: string[] = [];
    const primary = v.tableIn("primary", "CLAIM_TABLE");
    const standby = v.tableIn("standby", "CLAIM_TABLE");
    if (!primary.table || !standby.table) return ["a Region has no claim table"];
    for (const [role, t] of [["primary", primary.table] as const, ["standby", standby.table] as const]) {
      if (t.inputs.hashKey !== "id" || t.inputs.rangeKey) out.push(`${role}: claim table key is not id`);
    }
    const witness = (t: CapturedResource) => str(obj(t.inputs.globalTableWitness).regionName);
    const ttlOn = (t: CapturedResource) => obj(t.inputs.ttl).enabled === true;
    if (v.expected.claimMode === "mrsc") {
      if (primary.table !== standby.table) out.push("mrsc: the Regions use different claim tables");
      if (v.regionOf(primary.table) !== v.region("primary"))
        out.push("mrsc: the claim table is not in the primary Region");
      out.push(...replicaProblems("mrsc claims", primary.table, v, "STRONG"));
      if (witness(primary.table) !== v.expected.regions.witness) {
        out.push(
          `mrsc: the claim table's witness is ${witness(primary.table) ?? "missing"}, expected ${v.expected.regions.witness}`,
        );
      }
      if (ttlOn(primary.table)) out.push("mrsc: the claim table has TTL on (MRSC tables have no TTL)");
    } else {
      if (primary.table === standby.table) out.push("home: both Regions use one claim table");
      for (const [role, t] of [["primary", primary.table] as const, ["standby", standby.table] as const]) {
        if (v.regionOf(t) !== v.region(role))
          out.push(`home: the ${role} claim table is in ${v.regionOf(t)}`);
        if (arr(t.inputs.replicas).length > 0) out.push(`home: the ${role} claim table has replicas`);
        if (witness(t)) out.push(`home: the ${role} claim table has a witness`);
        const ttl = obj(t.inputs.ttl);
        if (ttl.attributeName !== "expiration" || ttl.enabled !== true)
          out.push(`home: the ${role} claim table has no TTL on expiration`);
      }
    }
    const control = v.table(v.regionEnv("primary", "CONTROL_TABLE"));
    for (const t of v.ofType("aws:dynamodb/table:Table")) {
      // The authority may be MRSC too (controlAuthority holds it to its own rules).
      if (t === primary.table || t === standby.table || t === control) continue;
      if (witness(t) || arr(t.inputs.replicas).some((r) => obj(r).consistencyMode === "STRONG")) {
        out.push(`${t.name} is an MRSC table but is not the claim table`);
      }
    }
    return out;
  },
};

/** Each Region's HTTP API has exactly the contract routes, all behind the JWT authorizer except the PSP webhook. */
export const apiRoutes: Invariant = {
  name: "JWT authorizer on every route except the webhook, no /_local route",
  check(v) {
    const out: string[] = [];
    const routes = v.ofType("aws:apigatewayv2/route:Route");
    for (const r of routes) {
      const key = String(r.inputs.routeKey);
      if (key.includes("/_local")) out.push(`route ${key} exists in AWS (local-only)`);
    }
    for (const role of ROLES) {
      const apis = v.ofType("aws:apigatewayv2/api:Api").filter((a) => v.regionOf(a) === v.region(role));
      if (apis.length !== 1) {
        out.push(`${role}: ${apis.length} HTTP APIs, expected 1`);
        continue;
      }
      const api = apis[0] as CapturedResource;
      const authorizers = v
        .ofType("aws:apigatewayv2/authorizer:Authorizer")
        .filter((a) => a.inputs.apiId === api.id);
      const jwt = authorizers.find((a) => a.inputs.authorizerType === "JWT");
      if (!jwt) {
        out.push(`${role}: the API has no JWT authorizer`);
      } else {
        const conf = obj(jwt.inputs.jwtConfiguration);
        if (conf.issuer !== v.expected.jwt.issuer) out.push(`${role}: JWT issuer is ${conf.issuer}`);
        if (JSON.stringify(conf.audiences) !== JSON.stringify([v.expected.jwt.audience])) {
          out.push(`${role}: JWT audiences are ${JSON.stringify(conf.audiences)}`);
        }
        if (!arr(jwt.inputs.identitySources).includes("$request.header.Authorization")) {
          out.push(`${role}: the JWT authorizer does not read the Authorization header`);
        }
      }
      const apiRoutes = routes.filter((r) => r.inputs.apiId === api.id);
      const keys = apiRoutes.map((r) => String(r.inputs.routeKey)).sort();
      const want = byTrigger("http")
        .map((h) => (h.trigger.kind === "http" ? h.trigger.route : ""))
        .sort();
      if (JSON.stringify(keys) !== JSON.stringify(want))
        out.push(`${role}: routes are ${keys.join(", ")}; expected ${want.join(", ")}`);
      for (const r of apiRoutes) {
        const key = String(r.inputs.routeKey);
        const open = (CONTRACT.unauthenticatedRoutes as readonly string[]).includes(key);
        if (open && r.inputs.authorizationType !== "NONE")
          out.push(`${role}: ${key} is not open to the PSP (it signs with HMAC)`);
        if (!open && (r.inputs.authorizationType !== "JWT" || !jwt || r.inputs.authorizerId !== jwt.id)) {
          out.push(`${role}: ${key} is not behind the JWT authorizer (${r.inputs.authorizationType})`);
        }
        const integration = v
          .ofType("aws:apigatewayv2/integration:Integration")
          .find((i) => r.inputs.target === `integrations/${i.id}`);
        const target = v.byArn(str(integration?.inputs.integrationUri));
        const h = handlers.find((x) => x.trigger.kind === "http" && x.trigger.route === key);
        if (!h || target?.inputs.handler !== h.handler || v.regionOf(target) !== v.region(role)) {
          out.push(
            `${role}: ${key} does not invoke ${h?.handler ?? "a manifest handler"} in ${v.region(role)}`,
          );
        }
      }
    }
    return out;
  },
};

/** The resolver runs every minute and the sweeps every 5 minutes, in each Region, on that Region's functions. */
export const schedules: Invariant = {
  name: "resolver and sweeps schedules",
  check(v) {
    const out: string[] = [];
    const all = v.ofType("aws:scheduler/schedule:Schedule");
    for (const role of ROLES) {
      for (const [id, rate] of Object.entries(CONTRACT.schedules)) {
        const f = v.fn(role, id);
        const found = all.filter((s) => f && obj(s.inputs.target).arn === f.state.arn);
        if (found.length !== 1) {
          out.push(`${role}: ${found.length} schedules invoke ${id}, expected 1`);
          continue;
        }
        const s = found[0] as CapturedResource;
        if (s.inputs.scheduleExpression !== rate)
          out.push(`${role}: ${id} runs on ${s.inputs.scheduleExpression}, expected ${rate}`);
        if (s.inputs.state !== "ENABLED") out.push(`${role}: the ${id} schedule is ${s.inputs.state}`);
        if (v.regionOf(s) !== v.region(role)) out.push(`${role}: the ${id} schedule is in ${v.regionOf(s)}`);
      }
    }
    return out;
  },
};

/** Least privilege, evaluated on each function role's effective IAM policy. */
export const permissions: Invariant = {
  name: "each function's permissions (least privilege)",
  check(v) {
    const out: string[] = [];
    const claimArns = ROLES.map((r) => v.tableIn(r, "CLAIM_TABLE").arn).filter((a): a is string => !!a);
    const queueArns = ROLES.map((r) =>
      str(v.queueByUrl(v.regionEnv(r, "EVENTS_QUEUE_URL"))?.state.arn),
    ).filter((a): a is string => !!a);
    const senders = new Set(handlers.filter((h) => h.access.sendEvents).map((h) => h.id));
    // The single-region authority is read across Regions (controlAuthority allows GetItem on it and nothing more).
    const crossRegion =
      v.expected.controlMode === "single-region"
        ? str(v.table(v.regionEnv("primary", "CONTROL_TABLE"))?.state.arn)
        : undefined;
    for (const role of ROLES) {
      const region = v.region(role);
      const ownQueue = str(v.queueByUrl(v.regionEnv(role, "EVENTS_QUEUE_URL"))?.state.arn) ?? "(none)";
      // The other Region's events queue, for a declared hand-over only (peerQueue holds it to the worker and the sweeps).
      const peer = str(peerEventsQueue(v, role)?.state.arn);
      for (const h of handlers) {
        const f = v.fn(role, h.id);
        if (!f) continue;
        const policies = v.policies(f);
        const handsOver = (arn: string) => arn === peer && h.access.peerEventsQueue === "send";
        if (policies.length === 0) out.push(`${role}: ${h.id} has no inline policy`);
        const trust = JSON.parse(String(v.role(f)?.inputs.assumeRolePolicy ?? "{}")) as PolicyDocument;
        const principals = (Array.isArray(trust.Statement) ? trust.Statement : [trust.Statement]).map((st) =>
          JSON.stringify((st as { Principal?: unknown } | undefined)?.Principal),
        );
        if (principals.some((p) => p !== JSON.stringify({ Service: "lambda.amazonaws.com" }))) {
          out.push(`${role}: ${h.id}'s role trusts ${principals.join(", ")}, not only lambda.amazonaws.com`);
        }
        const managed = arr(v.role(f)?.inputs.managedPolicyArns).filter((a) => a !== BASIC_EXECUTION);
        if (managed.length) out.push(`${role}: ${h.id} has managed policies ${managed.join(", ")}`);
        for (const resource of allowedResources(policies)) {
          const r = resource.split(":")[3];
          if (resource === "*" && !isSesSendOnly(policies)) out.push(`${role}: ${h.id} is allowed on "*"`);
          if (r && r !== region && resource !== crossRegion && !handsOver(resource))
            out.push(`${role}: ${h.id} is allowed on ${resource} in another Region`);
        }
        // The rules of the issue, whatever the manifest says.
        if (h.trigger.kind === "events-queue") {
          for (const arn of claimArns) {
            for (const action of TABLE_WRITES) {
              if (v.can(f, action, arn))
                out.push(`${role}: the worker may ${action} on the claim table ${arn}`);
            }
          }
          for (const action of ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"]) {
            if (!v.can(f, action, ownQueue)) out.push(`${role}: the worker may not ${action} on its queue`);
          }
        }
        for (const arn of queueArns) {
          const may = v.can(f, "sqs:SendMessage", arn);
          if (may && h.trigger.kind === "http")
            out.push(`${role}: API handler ${h.id} may send to the events queue ${arn}`);
          else if (may && !senders.has(h.id) && !handsOver(arn))
            out.push(`${role}: ${h.id} may send to the events queue ${arn}`);
        }
        if (senders.has(h.id) && !v.can(f, "sqs:SendMessage", ownQueue))
          out.push(`${role}: ${h.id} may not send to its events queue`);
        if (h.access.readLedgerStream) {
          const stream = v.tableIn(role, "LEDGER_TABLE").streamArn ?? "(none)";
          for (const action of [
            "dynamodb:GetRecords",
            "dynamodb:GetShardIterator",
            "dynamodb:DescribeStream",
          ]) {
            if (!v.can(f, action, stream))
              out.push(`${role}: the relay may not ${action} on its ledger stream`);
          }
        }
        // Table access matches what the manifest declares: read-only stays read-only, none stays none.
        for (const [key, envName] of [
          ["claims", "CLAIM_TABLE"],
          ["ledger", "LEDGER_TABLE"],
          ["consumer", "CONSUMER_TABLE"],
        ] as const) {
          const arn = v.tableIn(role, envName).arn ?? "(none)";
          const declared = h.access[key];
          const reads = TABLE_READS.every((a) => v.can(f, a, arn));
          const writes = TABLE_WRITES.some((a) => v.can(f, a, arn));
          if (writes && declared !== "write")
            out.push(`${role}: ${h.id} may write the ${key} table (declared ${declared ?? "none"})`);
          if (!writes && declared === "write") out.push(`${role}: ${h.id} may not write the ${key} table`);
          if (!reads && declared) out.push(`${role}: ${h.id} may not read the ${key} table`);
          if (reads && !declared) out.push(`${role}: ${h.id} may read the ${key} table (declared none)`);
        }
      }
    }
    return out;
  },
};

/** SST's Email link grants ses:SendEmail on "*" (SES sandbox needs it); that is the only "*" accepted. */
function isSesSendOnly(policies: PolicyDocument[]): boolean {
  return policies.every((doc) =>
    (Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement]).every((st) => {
      const resources = Array.isArray(st.Resource) ? st.Resource : [st.Resource];
      if (!resources.includes("*")) return true;
      const actions = Array.isArray(st.Action) ? st.Action : [st.Action];
      return actions.every((a) => typeof a === "string" && /^ses:Send(Raw|Templated)?Email$/.test(a));
    }),
  );
}

/** Each Region has its APNs and FCM platform applications and its SES identity. */
export const pushAndEmail: Invariant = {
  name: "push platform applications and SES identity per Region",
  check(v) {
    const out: string[] = [];
    const apns = v.expected.production ? "APNS" : "APNS_SANDBOX";
    for (const role of ROLES) {
      const apps = v
        .ofType("aws:sns/platformApplication:PlatformApplication")
        .filter((a) => v.regionOf(a) === v.region(role));
      const platforms = apps.map((a) => String(a.inputs.platform)).sort();
      if (JSON.stringify(platforms) !== JSON.stringify([apns, "GCM"].sort())) {
        out.push(`${role}: push platforms are ${platforms.join(", ")}, expected ${apns} and GCM`);
      }
      for (const a of apps)
        if (!a.inputs.platformCredential) out.push(`${role}: ${a.name} has no credential`);
      const identities = v
        .ofType("aws:sesv2/emailIdentity:EmailIdentity")
        .filter((i) => v.regionOf(i) === v.region(role) && i.inputs.emailIdentity === v.expected.emailSender);
      if (identities.length !== 1) out.push(`${role}: no SES identity for ${v.expected.emailSender}`);
    }
    return out;
  },
};

/** Production stages retain data and protect tables; other stages can be removed. */
export const protection: Invariant = {
  name: "removal policy and deletion protection",
  check(v) {
    const out: string[] = [];
    const prod = v.expected.production;
    if (v.capture.app.removal !== (prod ? "retain" : "remove"))
      out.push(`removal is ${v.capture.app.removal}`);
    if (v.capture.app.protect !== prod) out.push(`protect is ${v.capture.app.protect}`);
    for (const t of v.ofType("aws:dynamodb/table:Table")) {
      if ((t.inputs.deletionProtectionEnabled === true) !== prod) {
        out.push(`${t.name}: deletion protection is ${t.inputs.deletionProtectionEnabled}`);
      }
      for (const r of arr(t.inputs.replicas).map(obj)) {
        if ((r.deletionProtectionEnabled === true) !== prod)
          out.push(`${t.name}: replica deletion protection is ${r.deletionProtectionEnabled}`);
      }
      if (prod && t.opts.retainOnDelete !== true) out.push(`${t.name}: not retained on delete`);
      if (!prod && t.opts.retainOnDelete === true)
        out.push(`${t.name}: retained on delete outside production`);
    }
    return out;
  },
};

/** Every invariant, in report order. */
export const invariants: Invariant[] = [
  regionsAndProviders,
  handlersDeployed,
  queues,
  workerSubscription,
  relaySubscription,
  oneStreamReader,
  streamIteratorAge,
  failureQueuePerConsumer,
  filtersWithinQuota,
  eventsQueueAtScale,
  streamJob,
  ledgerTable,
  consumerTable,
  claimTables,
  controlAuthority,
  apiRoutes,
  schedules,
  permissions,
  pushAndEmail,
  dnsRecords,
  pspSecrets,
  nightlyReconcile,
  onCallAlarms,
  signalAlarms,
  replicationAlarms,
  throttlesAndHeadroom,
  lambdaRuntime,
  scheduledRetriesOff,
  onCallDashboards,
  peerQueue,
  eventsDlqDrain,
  protection,
  operatorOutputs,
];

/** Runs every invariant; returns violations by invariant name (only the violated ones). */
export function violations(capture: Capture, expected: Expected): Record<string, string[]> {
  const v = new View(capture, expected);
  const out: Record<string, string[]> = {};
  for (const inv of invariants) {
    const found = inv.check(v);
    if (found.length) out[inv.name] = found;
  }
  return out;
}
