import type { Server } from "node:http";
import { DynamoTotalsSink, type RegionRole, readMerchantBalance } from "@eo/core";
import { handlers } from "../../../../stacks/handlers";
import { AnswerTally } from "../console/answer-tally";
import type { Poller } from "../pollers/poller";
import type { StartingPosition } from "../pollers/shard-reader";
import {
  boundPort,
  closeHttp,
  type LocalAnswer,
  type LocalRoutes,
  problem,
  type Route,
  startHttpFront,
} from "../runtime/http-front";
import { type JobRunner, scheduledJobs } from "../stack/scheduled-jobs";
import type { Emulators } from "../stack/start-emulators";
import { regionDocumentClient } from "./control-table";
import { readLedgerBacklog } from "./ledger-backlog";
import type { RegionFlags } from "./region-flags";
import type { RegionLambdas } from "./region-lambdas";
import { startRegionPollers } from "./region-pollers";

/** What one local Region's runtime is started with. */
export interface RegionInput {
  role: RegionRole;
  emulators: Emulators;
  lambdas: RegionLambdas;
  flags: RegionFlags;
  /** The Region's API listener, already bound (see `listenHttp`). */
  api: Server;
  /** The `/_local` routes about every Region (PSP, faults, clock, devices, emails, regions), served on each port. */
  globalRoutes: LocalRoutes;
  resolverEveryMs: number;
  sweepsEveryMs: number;
  noOverlap?: boolean;
  /** Whether to start the relay and the worker (a benchmark of the API alone turns them off). */
  asyncHalf: boolean;
  visibilityS: number;
  startingPosition?: StartingPosition;
  relayMaxRetryAttempts?: number;
  balanceShards: number;
}

/** One running local Region: its API, its event source mappings and its schedules. */
export interface RegionRuntime {
  role: RegionRole;
  apiUrl: string;
  jobs: JobRunner;
  /** The answers its API gave so far (the console's payments by answer and budget refusals). */
  answers: AnswerTally;
  healthy(): Record<string, boolean>;
  /** Resolves once every poller of the Region has delivered what its source holds, and committed it. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

const spec = (id: string) => handlers.find((h) => h.id === id) ?? { id, handler: "", access: {} };

/** Starts one Region as its stack deploys it: handlers behind its own API, relay, worker, resolver and sweeps. */
export async function startRegion(input: RegionInput): Promise<RegionRuntime> {
  const { role, lambdas, flags } = input;
  const stops: Array<() => Promise<void>> = [];
  const stop = async () => {
    for (const s of stops.splice(0).reverse()) await s().catch(() => undefined);
  };
  try {
    const down = () => !flags.isUp(role);
    const pollers: Poller[] = input.asyncHalf
      ? await startRegionPollers({ ...input, paused: down, maxRetryAttempts: input.relayMaxRetryAttempts })
      : [];
    stops.push(...pollers.map((p) => () => p.stop()));
    // EventBridge hands a cron target an event; a run by hand may bring its own (the failover's sweep does).
    const cron = (id: string) => async (event?: unknown) =>
      down() ? { down: true } : lambdas.handlerOf(spec(id))(event ?? {}, cronContext(id));
    const jobs = scheduledJobs(
      { resolverEveryMs: input.resolverEveryMs, noOverlap: input.noOverlap },
      { sweeps: { everyMs: input.sweepsEveryMs > 0 ? input.sweepsEveryMs : 2 ** 40, run: cron("Sweeps") } },
      cron("Resolver"),
    );
    stops.push(() => jobs.stop());
    const routes = apiRoutesOn(lambdas);
    const local = regionRoutes(input, jobs);
    const answers = new AnswerTally();
    const front = await startHttpFront(
      input.api,
      routes,
      local,
      () => (down() ? regionDown(role) : undefined),
      (a) => answers.count(a),
    );
    stops.push(() => closeHttp(front));
    return {
      role,
      apiUrl: `http://127.0.0.1:${boundPort(input.api)}`,
      jobs,
      answers,
      healthy: () =>
        Object.fromEntries(
          pollers.map((p, i) => [`${role}-${i === 0 ? "ledger-stream" : "notify-worker"}`, p.healthy()]),
        ),
      idle: async () => void (await Promise.all(pollers.map((p) => p.idle()))),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

/** The contract's API routes from the manifest the stacks deploy, each on the Region's own functions. */
function apiRoutesOn(lambdas: RegionLambdas): Route[] {
  return handlers.flatMap((h) => {
    if (h.trigger.kind !== "http") return [];
    const [method = "", path = ""] = h.trigger.route.split(" ");
    const handler = lambdas.handlerOf(h);
    return [{ method, path, functionName: h.id, auth: h.trigger.auth === "jwt", load: async () => handler }];
  });
}

/**
 * The `/_local` routes about this Region (its jobs, its merchants, its stream job's totals, its ledger's backlog),
 * then the global ones.
 */
function regionRoutes(input: RegionInput, jobs: JobRunner): LocalRoutes {
  const db = regionDocumentClient(input.emulators, input.role);
  const table = input.emulators.regions[input.role].consumerTable;
  return async (req, url, body) => {
    const run = /^\/_local\/run\/([\w-]+)$/.exec(url.pathname);
    if (req.method === "POST" && run?.[1]) return runJob(input, jobs, run[1], body);
    const merchant = /^\/_local\/merchants\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && merchant?.[1]) {
      const id = decodeURIComponent(merchant[1]);
      return { status: 200, body: await readMerchantBalance(db, table, id, input.balanceShards) };
    }
    const totals = /^\/_local\/totals\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && totals?.[1]) {
      const sink = new DynamoTotalsSink(db, input.emulators.regions[input.role].totalsTable);
      return { status: 200, body: await sink.totalsOf(decodeURIComponent(totals[1])) };
    }
    if (req.method === "GET" && url.pathname === "/_local/backlog") {
      return {
        status: 200,
        body: await readLedgerBacklog(db, input.emulators.regions[input.role].ledgerTable),
      };
    }
    return input.globalRoutes(req, url, body);
  };
}

/** Runs a scheduled job now; a JSON body is its invocation's event (the failover script's sweep sets one). */
async function runJob(input: RegionInput, jobs: JobRunner, name: string, body: Buffer): Promise<LocalAnswer> {
  if (!input.flags.isUp(input.role)) return regionDown(input.role);
  if (!jobs.names().includes(name)) {
    return {
      status: 404,
      body: problem(404, "Not Found", `no job ${name}; jobs: ${jobs.names().join(", ")}`),
    };
  }
  let event: unknown = {};
  try {
    event = body.length > 0 ? JSON.parse(body.toString("utf8")) : {};
  } catch {
    return {
      status: 400,
      body: problem(400, "Bad Request", "the body of /_local/run/{job} must be a JSON event"),
    };
  }
  return { status: 200, body: { job: name, region: input.role, result: await jobs.runNow(name, event) } };
}

/** What a failed Region's API answers: 503, as an unreachable Region's load balancer would. */
function regionDown(role: RegionRole): LocalAnswer {
  return {
    status: 503,
    body: {
      type: "https://effectively-once.dev/problems/region-down",
      title: "Region Down",
      status: 503,
      detail: `the ${role} Region is down (POST /_local/regions/${role}/recover brings it back); send requests to the other Region`,
    },
  };
}

function cronContext(id: string) {
  const started = Date.now();
  return {
    functionName: id,
    getRemainingTimeInMillis: () => Math.max(0, 60_000 - (Date.now() - started)),
  } as never;
}
