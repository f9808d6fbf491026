import type { Server } from "node:http";
import { clearFaults, resetClock } from "@eo/core";
import { type FakePsp, type FakePspOptions, startFakePsp } from "@eo/psp";
import { resolvePort } from "../emulators/free-port";
import { isAlive } from "../emulators/managed-process";
import type { StartingPosition } from "../pollers/shard-reader";
import { startHttpFront } from "../runtime/http-front";
import { apiRoutes } from "./api-routes";
import { type AsyncHalf, startAsyncHalf } from "./async-half";
import { primaryHandlerEnv } from "./handler-env";
import { localRoutes } from "./local-routes";
import { type JobRunner, scheduledJobs } from "./scheduled-jobs";
import { type EmulatorPorts, type Emulators, startEmulators } from "./start-emulators";

export interface StackOptions {
  /** Ports; 0 or absent picks a free one (tests). `npm start` passes the contract's defaults. */
  ports?: EmulatorPorts & { api?: number; psp?: number };
  /** How often the resolver runs by itself; 0 turns the schedule off (tests run it on demand). */
  resolverEveryMs?: number;
  sweepsEveryMs?: number;
  webhookRetryBaseMs?: number;
  /** How long after a charge the PSP's webhook first goes out (default 2 s, env PSP_WEBHOOK_DELAY_MS). */
  webhookDelayMs?: number;
  /** Overrides for the fake PSP, e.g. higher rate limits for a benchmark. */
  psp?: Pick<FakePspOptions, "rateLimits">;
  /** Whether to start the relay, worker and push provider (on by default; a benchmark of the API turns it off). */
  asyncHalf?: boolean;
  /** Where the relay's stream mapping starts: LATEST (default, as in AWS) or TRIM_HORIZON. */
  streamStartingPosition?: StartingPosition;
  /** Keeps a scheduled job from overlapping itself, which EventBridge does not promise (off by default). */
  jobsNoOverlap?: boolean;
  /** Runs once the tables exist and the handlers' environment is set, before the relay's mapping starts. */
  beforeMappings?: (emulators: Emulators) => Promise<void>;
}

/** The whole local stack, both Regions, on 127.0.0.1. */
export interface LocalStack {
  apiUrl: string;
  emulators: Emulators;
  psp: FakePsp;
  jobs: JobRunner;
  stop(): Promise<void>;
}

let running = false;

/**
 * Starts the emulators, the fake PSP, the HTTP front, the pollers and the scheduler. Handlers run
 * in this process and read their configuration from the environment once, so one stack per process.
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
    running = false;
  };
  try {
    const apiPort = await resolvePort(opts.ports?.api ?? envPort("API_PORT"));
    const apiUrl = `http://127.0.0.1:${apiPort}`;
    const emulators = await startEmulators(opts.ports);
    stops.push(() => emulators.stop());
    const psp = await startFakePsp({
      port: opts.ports?.psp ?? envPort("PSP_PORT") ?? 0,
      webhookUrl: `${apiUrl}/webhooks/psp`,
      webhookSecret: process.env.PSP_WEBHOOK_SECRET ?? "whsec_local",
      webhookRetry: {
        baseMs: opts.webhookRetryBaseMs ?? 500,
        maxMs: 30_000,
        maxAttempts: 50,
        // The PSP's event arrives a little after its reply, as in the seed's trace (webhook after the retry).
        firstMs: opts.webhookDelayMs ?? Number(process.env.PSP_WEBHOOK_DELAY_MS ?? 2_000),
      },
      ...opts.psp,
    });
    stops.push(() => psp.stop());
    Object.assign(process.env, primaryHandlerEnv(emulators, psp.url));
    await opts.beforeMappings?.(emulators);
    const asyncHalf = await (opts.asyncHalf === false ? noAsyncHalf() : startAsyncHalf)({
      emulators,
      apiUrl,
      applyEnv: (env) => void Object.assign(process.env, env),
      sweepsEveryMs: opts.sweepsEveryMs ?? 300_000,
      startingPosition: opts.streamStartingPosition,
    });
    stops.push(() => asyncHalf.stop());
    const jobs = scheduledJobs(
      { resolverEveryMs: opts.resolverEveryMs ?? 60_000, noOverlap: opts.jobsNoOverlap },
      asyncHalf.jobs,
    );
    stops.push(() => jobs.stop());
    const health = async () => {
      const services: Record<string, boolean> = Object.fromEntries(
        emulators.processes.map((p) => [p.name, isAlive(p.pid)]),
      );
      Object.assign(services, asyncHalf.healthy());
      const pids = Object.fromEntries(emulators.processes.map((p) => [p.name, p.pid]));
      return { ok: Object.values(services).every(Boolean), services, pids };
    };
    const local = localRoutes({
      health,
      pspCharges: () => psp.charges(),
      sesEndpoint: emulators.endpoints.ses,
      runJob: (name) => jobs.runNow(name),
      jobNames: () => jobs.names(),
      extra: asyncHalf.localRoutes,
    });
    const front = await startHttpFront(apiPort, [...apiRoutes(), ...asyncHalf.routes], local);
    stops.push(() => closeServer(front));
    return { apiUrl, emulators, psp, jobs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function noAsyncHalf() {
  return async (): Promise<AsyncHalf> => ({
    routes: [],
    localRoutes: [],
    jobs: {},
    healthy: () => ({}),
    stop: async () => undefined,
  });
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

function envPort(name: string): number | undefined {
  const v = process.env[name];
  return v ? Number(v) : undefined;
}
