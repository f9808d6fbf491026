import { parseArgs } from "node:util";
import {
  type Budget,
  checkHeadroom,
  endpointBudgetFromEnv,
  MAX_SCALE,
  STRIPE_LIMITS,
  scaledCaps,
} from "./scale-settings";
import { UsageError } from "./usage-error";

export { UsageError };

/** What one load run does; every field has a bound, so a run always stops by itself. */
export interface LoadSettings {
  /** Arrivals per second at the start and at the end (equal for a fixed rate). */
  rateFrom: number;
  rateTo: number;
  durationS: number;
  /** The API to load; undefined: the generator starts the local stack itself. */
  url?: string;
  outage?: { startS: number; lengthS: number };
  latency?: { p50: number; p99: number };
  loseReplyRate: number;
  callers: number;
  merchants: number;
  /** Share of arrivals that pay the one hot merchant. */
  hotShare: number;
  /** Share of arrivals with the test card that is always declined. */
  declineShare: number;
  reportDir: string;
  seed: number;
  /** How often the started stack's resolver runs by itself (AWS: every minute). */
  resolverEveryS: number;
  /** The fake PSP's own limits when the generator starts the stack (Stripe's defaults: 100/s, 25/s). */
  pspAccountLimit: number;
  pspEndpointLimit: number;
  /** Lifts the PSP's limits and our budget far above any rate (the stack's own ceiling). */
  liftCaps: boolean;
  /** `--scale k`: Stripe's caps divided by k, so that a 2-core machine runs the real caps' ratios. */
  scale?: number;
  /** Our budget as the started stack's environment sets it; undefined: the environment's own (or core's defaults). */
  budget?: Budget;
  /** Our endpoint budget the run works under (for the FIFO bound). */
  endpointBudgetPerS: number;
  json: boolean;
  /** UNSAFE, tests only (never from the command line): phones make a new key per retry, to show the check fail. */
  unsafeNewKeyPerRetry?: boolean;
  /** The phones' client horizon (`--horizon`, default 45 s): how long a buyer retries the same key. */
  phoneHorizonMs: number;
  /** Tests only: how long to wait for the stack to settle after the run (default 180 s). */
  quietWithinMs?: number;
}

export const USAGE = `usage: npm run load -- --rate <n/s> --duration <s> [options]
  --rate <n>              arrivals per second (open loop), or --ramp <from>:<to> for a linear ramp
  --duration <s>          how long arrivals go on (1 to 600)
  --url <api>             load this API (loopback only: 127.0.0.1, localhost, [::1]); else the stack is started here
  --psp-outage <s>:<len>  the PSP fails or loses replies from second <s> for <len> seconds
  --psp-latency <p50>:<p99>  PSP latency in ms, log-normal
  --lose-reply-rate <r>   share of PSP charges whose reply is lost (0 to 1)
  --callers <n>           distinct buyers (default 200)   --merchants <n>  merchants (default 50)
  --hot-merchant <share>  share of payments to one hot merchant (default 0.2)
  --declines <share>      share of payments with a card that is declined (default 0.02)
  --report <dir>          where report.json and report.html go (default ./load-report)
  --resolver-every <s>    the started stack's resolver schedule (default 60, as in AWS)
  --psp-limit <acct>:<endpoint>  the fake PSP's rate limits when started here (default 100:25)
  --lift-caps             lift the PSP's limits and our budget (the local stack's own ceiling)
  --scale <k>             Stripe's caps divided by k (1 to ${MAX_SCALE}) for the stack started here: --scale 5 gives
                          the PSP 20:5 and our budget 16/s account, 4/s endpoint, 2/s resolver (a request of headroom)
  --horizon <s>           how long each phone retries the same key before it asks "did it go through?" (default 45)
  --seed <n>              arrivals, buyers and merchants are drawn from this seed (default 1)
  --json                  print the report as JSON on stdout (progress goes to stderr)`;

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

function pair(raw: string | undefined, what: string): [number, number] | undefined {
  if (raw === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(raw);
  if (!m) throw new UsageError(`${what} must be <a>:<b> in numbers, e.g. 20:10 (got ${raw})`);
  return [Number(m[1]), Number(m[2])];
}

function bounded(raw: string | undefined, what: string, min: number, max: number, fallback?: number): number {
  if (raw === undefined) {
    if (fallback === undefined) throw new UsageError(`${what} is required`);
    return fallback;
  }
  const n = Number(raw);
  if (!Number.isFinite(n) || n < min || n > max)
    throw new UsageError(`${what} must be from ${min} to ${max} (got ${raw})`);
  return n;
}

/** Only loopback: a load test must never send traffic to another machine. */
export function loopbackUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`--url must be a URL such as http://127.0.0.1:3000 (got ${raw})`);
  }
  if (url.protocol !== "http:" || !LOOPBACK.has(url.hostname))
    throw new UsageError(`--url must be http on loopback (127.0.0.1, localhost, [::1]); refused ${raw}`);
  return url.origin;
}

type Caps = Pick<
  LoadSettings,
  "pspAccountLimit" | "pspEndpointLimit" | "liftCaps" | "scale" | "budget" | "endpointBudgetPerS"
>;

/** The PSP's limits and our budget from --psp-limit, --lift-caps, --scale and the environment, or a refusal. */
function capsOf(v: Record<string, string | boolean | undefined>, env: NodeJS.ProcessEnv): Caps {
  const liftCaps = v["lift-caps"] === true;
  const raw = v.scale as string | undefined;
  if (raw !== undefined) {
    const clash = ["psp-limit", "lift-caps", "url"].find((f) => v[f] !== undefined);
    if (clash) throw new UsageError(`--scale sets the caps of the stack started here; drop --${clash}`);
    const scale = bounded(raw, "--scale", 1, MAX_SCALE);
    const c = scaledCaps(scale);
    return { ...c, liftCaps, scale, endpointBudgetPerS: c.budget.endpointPerS };
  }
  const limit = pair(v["psp-limit"] as string | undefined, "--psp-limit") ?? [
    STRIPE_LIMITS.accountPerS,
    STRIPE_LIMITS.endpointPerS,
  ];
  const caps = { pspAccountLimit: limit[0], pspEndpointLimit: limit[1], liftCaps };
  if (liftCaps) return { ...caps, endpointBudgetPerS: 1_000_000 };
  const endpointBudgetPerS = endpointBudgetFromEnv(env);
  // Only a stack started here is known to run with this environment and these limits.
  if (v.url === undefined) checkHeadroom(endpointBudgetPerS, limit[1]);
  return { ...caps, endpointBudgetPerS };
}

/** Reads and checks the command line (and our budget in `env`); throws UsageError with the reason. */
export function loadSettings(argv: string[], env: NodeJS.ProcessEnv = process.env): LoadSettings {
  const { values: v } = parseArgs({
    args: argv,
    options: Object.fromEntries(
      [
        "rate",
        "ramp",
        "duration",
        "url",
        "psp-outage",
        "psp-latency",
        "lose-reply-rate",
        "callers",
        "merchants",
        "hot-merchant",
        "declines",
        "report",
        "seed",
        "resolver-every",
        "psp-limit",
        "scale",
        "horizon",
      ]
        .map((name) => [name, { type: "string" as const }])
        .concat([
          ["lift-caps", { type: "boolean" as const }] as never,
          ["json", { type: "boolean" as const }] as never,
        ]),
    ),
    strict: true,
  }) as { values: Record<string, string | boolean | undefined> };
  const s = (name: string) => v[name] as string | undefined;
  const ramp = pair(s("ramp"), "--ramp");
  if (ramp && s("rate")) throw new UsageError("give --rate or --ramp, not both");
  const rate = ramp ? undefined : bounded(s("rate"), "--rate", 0.1, 1_000);
  for (const r of ramp ?? []) bounded(String(r), "--ramp rates", 0.1, 1_000);
  const durationS = bounded(s("duration"), "--duration", 1, 600);
  const outage = pair(s("psp-outage"), "--psp-outage");
  if (outage && outage[0] + outage[1] > durationS)
    throw new UsageError("--psp-outage must end within --duration");
  const latency = pair(s("psp-latency"), "--psp-latency");
  if (latency && latency[1] < latency[0]) throw new UsageError("--psp-latency p99 must be at least its p50");
  return {
    rateFrom: ramp?.[0] ?? (rate as number),
    rateTo: ramp?.[1] ?? (rate as number),
    durationS,
    url: s("url") === undefined ? undefined : loopbackUrl(s("url") as string),
    outage: outage && { startS: outage[0], lengthS: outage[1] },
    latency: latency && { p50: latency[0], p99: latency[1] },
    loseReplyRate: bounded(s("lose-reply-rate"), "--lose-reply-rate", 0, 1, 0),
    callers: bounded(s("callers"), "--callers", 1, 100_000, 200),
    merchants: bounded(s("merchants"), "--merchants", 1, 10_000, 50),
    hotShare: bounded(s("hot-merchant"), "--hot-merchant", 0, 1, 0.2),
    declineShare: bounded(s("declines"), "--declines", 0, 1, 0.02),
    reportDir: s("report") ?? "load-report",
    seed: bounded(s("seed"), "--seed", 0, 2 ** 31, 1),
    resolverEveryS: bounded(s("resolver-every"), "--resolver-every", 1, 3_600, 60),
    ...capsOf(v, env),
    phoneHorizonMs: bounded(s("horizon"), "--horizon", 1, 600, 45) * 1000,
    json: v.json === true,
  };
}
