import { clearFaults, DEFAULT_BALANCE_SHARDS, type PspDialect, pspDialectOf, resetClock } from "@eo/core";
import { type FakePsp, type FakePspOptions, startFakePsp } from "@eo/psp";
import { consoleRoutes } from "../console/console-routes";
import { isAlive } from "../emulators/managed-process";
import { resetReadThrottle } from "../pollers/read-throttle";
import type { StartingPosition } from "../pollers/shard-reader";
import { type AuthorityLinks, startAuthorityLinks } from "../region/authority-link";
import { createControlTables } from "../region/control-table";
import { RegionFlags } from "../region/region-flags";
import { inProcessLambdas, type RegionLambdas, workerLambdas } from "../region/region-lambdas";
import { RELAY_MAX_RETRY_ATTEMPTS } from "../region/region-pollers";
import { regionsRoute } from "../region/regions-route";
import { type RegionInput, type RegionRuntime, startRegion } from "../region/start-region";
import {
  DEFAULT_REPLICATION_LAG_MS,
  type Replicator,
  startReplicator,
} from "../replication/start-replicator";
import { boundPort, closeHttp, type LocalRoutes, listenHttp } from "../runtime/http-front";
import { EVENTS_MAX_RECEIVE_COUNT, EVENTS_VISIBILITY_TIMEOUT_S } from "./create-resources";
import { type ExternalPspChoice, externalPsp } from "./external-psp";
import { type LocalSecrets, localSecrets, operatorSecretsEnv, regionHandlerEnv } from "./handler-env";
import { localRoutes } from "./local-routes";
import { resourcesRoute, webhookTargetRoute } from "./operator-routes";
import { pspRateLimitsFromEnv } from "./psp-rate-limits";
import { type PushService, startPushService } from "./push-service";
import type { JobRunner } from "./scheduled-jobs";
import { type EmulatorPorts, type Emulators, startEmulators } from "./start-emulators";

export interface StackOptions {
  /** Ports; 0 or absent picks a free one (tests). `npm start` passes the contract's defaults. */
  ports?: EmulatorPorts & { api?: number; standbyApi?: number; psp?: number };
  /** How often the resolver runs by itself; 0 turns the schedule off (tests run it on demand). */
  resolverEveryMs?: number;
  sweepsEveryMs?: number;
  webhookRetryBaseMs?: number;
  /** How long after a charge the PSP's webhook first goes out (default 2 s, env PSP_WEBHOOK_DELAY_MS). */
  webhookDelayMs?: number;
  /**
   * The dialect the fake PSP speaks and the handlers' adapter with it (default env PSP, else "generic"): with
   * "stripe" the handlers call it through Stripe's SDK and its webhooks go to `/webhooks/stripe`.
   */
  pspDialect?: PspDialect;
  /**
   * A real PSP to call instead of starting the fake (`npm start` with PSP_URL, e.g. Stripe's test mode): the handlers
   * call it, its webhooks come from it (`stripe listen --forward-to`), and what only the fake keeps answers 501.
   */
  externalPsp?: ExternalPspChoice;
  /** Overrides for the fake PSP, e.g. higher rate limits for a benchmark. */
  psp?: Pick<FakePspOptions, "rateLimits">;
  /** Whether to start the relay, worker and push provider (on by default; a benchmark of the API turns it off). */
  asyncHalf?: boolean;
  /** Whether to run the standby Region and the replication between them (on by default, as `npm start` does). */
  standby?: boolean;
  /** The replication lag (default env REPLICATION_LAG_MS, else 1,000 ms, the seed's assumption). */
  replicationLagMs?: number;
  /** Test-only: replicate the claim table too, as an MREC global table (a counterfactual of Part 9, branch F2). */
  unsafeReplicateClaims?: boolean;
  /** Where claims live (default env CLAIM_MODE, else "home"): "mrsc" makes one strongly consistent store for both. */
  claimMode?: "home" | "mrsc";
  /** Test-only variables for the standby's functions alone (a drill's counterfactual switch in one Region). */
  standbyEnv?: Record<string, string>;
  /** Where the relay's stream mapping starts: LATEST (default, as in AWS) or TRIM_HORIZON. */
  streamStartingPosition?: StartingPosition;
  /** Keeps a scheduled job from overlapping itself, which EventBridge does not promise (off by default). */
  jobsNoOverlap?: boolean;
  /** Runs once the tables exist and the handlers' environment is set, before the relay's mapping starts. */
  beforeMappings?: (emulators: Emulators) => Promise<void>;
  /** Starts the stand-ins for AWS's services (default: the emulators); the simulation serves its models instead. */
  startEmulators?: (ports?: EmulatorPorts) => Promise<Emulators>;
  /** Runs the standby's functions (default: a worker thread); the simulation runs them in this thread. */
  standbyLambdas?: (env: Record<string, string>, secrets: LocalSecrets) => Promise<RegionLambdas>;
}

/** The whole local stack, both Regions, on 127.0.0.1. */
export interface LocalStack {
  /** The primary Region's API. */
  apiUrl: string;
  /** The standby Region's API (undefined with `standby: false`). */
  standbyUrl?: string;
  emulators: Emulators;
  psp: FakePsp;
  /** The dialect the fake PSP speaks, and the API path its webhooks go to (`/webhooks/psp` or `/webhooks/stripe`). */
  pspDialect: PspDialect;
  /** Set when the stack calls a real PSP (`externalPsp`) and started no fake: where that PSP is. */
  externalPspUrl?: string;
  webhookPath: string;
  /** The primary Region's scheduled jobs. */
  jobs: JobRunner;
  regions: { primary: RegionRuntime; standby?: RegionRuntime };
  flags: RegionFlags;
  replicator?: Replicator;
  /** Each Region's way to the authority: its reads counted, and a latency to model AWS's or a slow authority. */
  authority: Pick<AuthorityLinks, "reads" | "setLatencyMs">;
  stop(): Promise<void>;
}

let running = false;

/**
 * Starts the emulators, the fake PSP, the push provider and both Regions (each its API, pollers and scheduler).
 * The primary's handlers run in this process on its environment (tests reach into them); the standby's run in a
 * worker thread with the standby's environment. One stack per process.
 */
export async function startLocalStack(opts: StackOptions = {}): Promise<LocalStack> {
  if (running) throw new Error("a local stack is already running in this process");
  running = true;
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
    stops.length = 0;
    clearFaults();
    resetClock();
    // EO_TEST_UNSAFE_KEEP_READ_THROTTLE: a test-only switch, the window left open for the next stack (the leak).
    if (process.env.EO_TEST_UNSAFE_KEEP_READ_THROTTLE !== "1") resetReadThrottle();
    running = false;
  };
  try {
    // The emulators' tables and both Regions' environments read it (one stack per process).
    if (opts.claimMode) process.env.CLAIM_MODE = opts.claimMode;
    // Both Regions' handlers read it (their adapter, their links), as CLAIM_MODE; a bad PSP value stops here.
    const pspDialect = opts.pspDialect ?? pspDialectOf(process.env);
    process.env.PSP = pspDialect;
    // Both API ports are held from here on: the webhook URL and the push provider need them before the Regions start.
    const apiListener = await listenHttp(opts.ports?.api ?? envPort("API_PORT") ?? 0);
    stops.push(() => closeHttp(apiListener));
    const standbyListener = await listenHttp(opts.ports?.standbyApi ?? envPort("STANDBY_API_PORT") ?? 0);
    stops.push(() => closeHttp(standbyListener));
    const apiPort = boundPort(apiListener);
    const standbyPort = boundPort(standbyListener);
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const emulators = await (opts.startEmulators ?? startEmulators)(opts.ports);
    stops.push(() => emulators.stop());
    const psp = opts.externalPsp ? externalPsp(opts.externalPsp) : await startPsp(opts, apiUrl, pspDialect);
    stops.push(() => psp.stop());
    const flags = new RegionFlags();
    const push =
      opts.asyncHalf === false ? undefined : await startPushService(emulators, flags, [apiPort, standbyPort]);
    if (push) stops.push(() => push.stop());
    await createControlTables(emulators);
    const links = await startAuthorityLinks(emulators.endpoints.dynamodb, flags);
    stops.push(() => links.stop());
    const envOf = (role: "primary" | "standby") => ({
      ...regionHandlerEnv(emulators, role, psp.url, undefined, links.urls[role]),
      ...push?.env,
      EVENTS_MAX_RECEIVE_COUNT: String(EVENTS_MAX_RECEIVE_COUNT),
    });
    // Tests and operator scripts run in this process with the primary's environment, and the scripts want the
    // operator's own PSP key; no handler invocation reads it (each reads its manifest entry's links only).
    const secrets = localSecrets();
    Object.assign(process.env, envOf("primary"), operatorSecretsEnv(secrets));
    await opts.beforeMappings?.(emulators);
    const standbyLambdas =
      opts.standby === false
        ? undefined
        : await (opts.standbyLambdas ?? workerLambdas)(
            withoutSecrets({ ...process.env, ...envOf("standby"), ...opts.standbyEnv }),
            secrets,
          );
    if (standbyLambdas) stops.push(() => standbyLambdas.stop());
    const replicator = standbyLambdas ? await startStackReplicator(opts, emulators) : undefined;
    if (replicator) stops.push(() => replicator.stop());
    const running: RegionRuntime[] = [];
    const expected = standbyLambdas ? 2 : 1;
    const global = globalRoutes({
      emulators,
      psp,
      flags,
      push,
      regions: running,
      expected,
      replicator,
      pspDialect,
      webhookPath: webhookPathOf(pspDialect),
    });
    const common = regionCommon(opts, emulators, flags, global);
    const primary = await startRegion({
      ...common,
      role: "primary",
      lambdas: inProcessLambdas(secrets),
      api: apiListener,
    });
    stops.push(() => primary.stop());
    const standby = standbyLambdas
      ? await startRegion({ ...common, role: "standby", lambdas: standbyLambdas, api: standbyListener })
      : undefined;
    if (standby) stops.push(() => standby.stop());
    running.push(primary, ...(standby ? [standby] : []));
    return {
      apiUrl,
      standbyUrl: standby?.apiUrl,
      emulators,
      psp,
      pspDialect,
      webhookPath: webhookPathOf(pspDialect),
      ...(opts.externalPsp ? { externalPspUrl: opts.externalPsp.url } : {}),
      jobs: primary.jobs,
      regions: { primary, standby },
      flags,
      replicator,
      authority: { reads: links.reads, setLatencyMs: links.setLatencyMs },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The API path a dialect's webhooks go to. */
export function webhookPathOf(dialect: PspDialect): string {
  return dialect === "stripe" ? "/webhooks/stripe" : "/webhooks/psp";
}

async function startPsp(opts: StackOptions, apiUrl: string, dialect: PspDialect): Promise<FakePsp> {
  const secrets = localSecrets();
  const options: FakePspOptions = {
    port: opts.ports?.psp ?? envPort("PSP_PORT") ?? 0,
    webhookUrl: `${apiUrl}${webhookPathOf(dialect)}`,
    // The same values the handlers' links carry (localSecrets): each dialect signs with its own.
    webhookSecret: secrets[dialect === "stripe" ? "StripeWebhookSecret" : "PspWebhookSecret"] ?? "",
    webhookRetry: {
      baseMs: opts.webhookRetryBaseMs ?? 500,
      maxMs: 30_000,
      maxAttempts: 50,
      // The PSP's event arrives a little after its reply, as in the seed's trace (webhook after the retry).
      firstMs: opts.webhookDelayMs ?? Number(process.env.PSP_WEBHOOK_DELAY_MS ?? 2_000),
    },
    ...opts.psp,
    rateLimits: opts.psp?.rateLimits ?? pspRateLimitsFromEnv(),
    // The webhooks' format: Stripe's events and Stripe-Signature, or the generic ones (both dialects are served).
    dialect,
  };
  return startFakePsp(options);
}

function regionCommon(
  opts: StackOptions,
  emulators: Emulators,
  flags: RegionFlags,
  globalRoutes: LocalRoutes,
) {
  return {
    emulators,
    flags,
    globalRoutes,
    resolverEveryMs: opts.resolverEveryMs ?? 60_000,
    sweepsEveryMs: opts.sweepsEveryMs ?? 300_000,
    noOverlap: opts.jobsNoOverlap,
    asyncHalf: opts.asyncHalf !== false,
    // create-resources.ts made the queue with this visibility timeout (tests shorten it).
    visibilityS: envNumber("EVENTS_VISIBILITY_TIMEOUT_S", EVENTS_VISIBILITY_TIMEOUT_S),
    startingPosition: opts.streamStartingPosition,
    relayMaxRetryAttempts: envNumber("RELAY_MAX_RETRY_ATTEMPTS", RELAY_MAX_RETRY_ATTEMPTS),
    balanceShards: envNumber("BALANCE_SHARDS", DEFAULT_BALANCE_SHARDS),
  } satisfies Omit<RegionInput, "role" | "lambdas" | "api">;
}

/** The `/_local` routes about every Region: health, PSP, faults, clock, emails, devices, regions. */
/** Starts the replication of the global tables between the two local Regions. */
async function startStackReplicator(opts: StackOptions, emulators: Emulators): Promise<Replicator> {
  const r = emulators.regions.primary;
  return startReplicator({
    endpoint: emulators.endpoints.dynamodb,
    tables: [r.ledgerTable, r.consumerTable, ...(opts.unsafeReplicateClaims ? [r.claimTable] : [])],
    lagMs: opts.replicationLagMs ?? envNumber("REPLICATION_LAG_MS", DEFAULT_REPLICATION_LAG_MS),
  });
}

interface GlobalSources {
  emulators: Emulators;
  psp: FakePsp;
  flags: RegionFlags;
  push: PushService | undefined;
  regions: RegionRuntime[];
  /** How many Regions the stack starts: health is not ok until each of them is. */
  expected: number;
  replicator: Replicator | undefined;
  /** The dialect the fake PSP speaks, and where its webhooks go on a Region's API (that dialect's route). */
  pspDialect: PspDialect;
  webhookPath: string;
}

function globalRoutes({
  emulators,
  psp,
  flags,
  push,
  regions,
  expected,
  replicator,
  pspDialect,
  webhookPath,
}: GlobalSources): LocalRoutes {
  const health = async () => {
    const services: Record<string, boolean> = Object.fromEntries(
      emulators.processes.map((p) => [p.name, isAlive(p.pid)]),
    );
    if (push) services["push-provider"] = push.provider.healthy();
    for (const r of regions) Object.assign(services, r.healthy(), { [`${r.role}-api`]: true });
    if (regions.length < expected) services.regions = false;
    const pids = Object.fromEntries(emulators.processes.map((p) => [p.name, p.pid]));
    return { ok: Object.values(services).every(Boolean), services, pids };
  };
  const base = localRoutes({
    health,
    pspCharges: () => psp.charges(),
    pspStats: () => psp.stats(),
    pspRedeliver: (reference) => psp.redeliverWebhooks(reference),
    sesEndpoint: emulators.endpoints.ses,
    runJob: async () => undefined,
    jobNames: () => [],
    extra: [
      ...(push?.routes ?? []),
      resourcesRoute(emulators, regions, { dialect: pspDialect, webhookPath }),
      webhookTargetRoute(psp, regions, webhookPath),
      ...consoleRoutes({ emulators, flags, replicator, psp, regions }),
    ],
  });
  return async (req, url, body) =>
    (await regionsRoute({ emulators, flags, replicator }, req.method ?? "GET", url.pathname, body)) ??
    base(req, url, body);
}

/** A Region's environment without the operator's copy of the secrets: the standby's thread runs handlers only. */
function withoutSecrets(env: NodeJS.ProcessEnv): Record<string, string> {
  const plain = new Set(Object.keys(operatorSecretsEnv({} satisfies LocalSecrets)));
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined && !plain.has(e[0])),
  );
}

function envPort(name: string): number | undefined {
  const v = process.env[name];
  return v ? Number(v) : undefined;
}

function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name}=${raw} must be a non-negative number`);
  return n;
}
