import type { ClientSwitches } from "./schedule";

/** What `npm run chaos` was asked to do. */
export interface ChaosSettings {
  runs: number;
  parallel: number;
  seed: number;
  /** 1: the primary Region alone; 2: both Regions, and every schedule fails one and fails over. */
  regions: 1 | 2;
  replay?: string;
  /** Guard switches to take away: server ones become EO_TEST_UNSAFE_* variables, client ones change the client. */
  unsafe: string[];
  outDir: string;
  shrink: boolean;
  /** Stop taking new schedules after this many minutes (a long run bounded by time rather than count). */
  forMinutes?: number;
  /** With two Regions: the nemesis may also stall replication (another generator: other schedules per seed). */
  stallReplication?: boolean;
  /** With two Regions: what the real world adds (lagging lookups, throttled stream reads, a refund in flight). */
  realWorld?: boolean;
}

export const USAGE = `usage: npm run chaos -- [--runs <n>] [--parallel <stacks>] [--seed <n>] [--replay <file>]
                        [--unsafe <guard>]... [--out <dir>] [--for <minutes>] [--regions 1|2]
                        [--no-shrink] [--stall-replication] [--real-world]
  --runs       schedules to play (default 100)
  --parallel   local stacks side by side, each on ports of 0 (default 1)
  --seed       the generator's seed (default: the time); a run is replayed by its seed and index
  --regions    1 (default): the primary Region; 2: both Regions, each schedule fails one and fails over
  --stall-replication  with --regions 2: the nemesis may also stall replication until a Region comes back
               (settle and cancel on one side, the older copy on the other); a seed then draws other schedules
  --real-world  with --regions 2: the nemesis adds what the real world does (stalled replication with a refund in
               flight, lagging PSP lookups after a failover, throttled stream reads), as \`npm run sim\` plays them
  --replay     play the schedule a violation wrote (its switches included) and judge it again
  --unsafe     take a guard away to see the checker catch it: ${Object.keys(unsafeGuards()).join(", ")}
  --out        where violations and summary.json go (default chaos-report)
  --for        stop starting new schedules after this many minutes (the runs played so far are the result)
exit: 0 no violation, 1 a violation (its shrunk schedule and replay command are printed), 2 usage`;

/** The guards a run may take away, by name: the environment variable, or the client's switch. */
export function unsafeGuards(): Record<string, { env?: string; client?: ClientSwitches }> {
  return {
    "no-durable-guard": { env: "EO_TEST_UNSAFE_NO_DURABLE_GUARD" },
    "unconditional-completion": { env: "EO_TEST_UNSAFE_UNCONDITIONAL_COMPLETION" },
    "no-notification-record": { env: "EO_TEST_UNSAFE_NO_NOTIFICATION_RECORD" },
    "random-event-id": { env: "EO_TEST_UNSAFE_RANDOM_EVENT_ID" },
    "new-key-per-retry": { client: { newKeyPerRetry: true } },
    "trust-own-copy": { env: "EO_TEST_UNSAFE_TRUST_OWN_COPY" },
    "worker-ignores-authority": { env: "EO_TEST_UNSAFE_WORKER_IGNORES_AUTHORITY" },
    "no-resolver-recheck": { env: "EO_TEST_UNSAFE_NO_RESOLVER_RECHECK" },
    "active-keeps-dead-letters": { env: "EO_TEST_UNSAFE_ACTIVE_KEEPS_DEAD_LETTERS" },
    // The real-world nemesis's guards (npm run sim -- --nemesis real-world, npm run chaos -- --real-world):
    "void-on-lagging-not-found": { env: "EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND" },
    "forget-psp-find": { env: "EO_TEST_UNSAFE_FORGET_PSP_FIND" },
    "rows-last-writer-wins": { env: "EO_TEST_UNSAFE_ROWS_LAST_WRITER_WINS" },
    "no-refund-mark": { env: "EO_TEST_UNSAFE_NO_REFUND_MARK" },
    "operator-clock-stamp": { env: "EO_TEST_UNSAFE_OPERATOR_CLOCK_STAMP" },
    // Stripe's refunds that fail later (PSP=stripe, the real-world nemesis's pm_card_refundFail orders):
    "no-refund-take-back": { env: "EO_TEST_UNSAFE_NO_REFUND_TAKE_BACK" },
    "no-refund-failed-notice": { env: "EO_TEST_UNSAFE_NO_REFUND_FAILED_NOTICE" },
    "take-early-events": { env: "EO_TEST_UNSAFE_TAKE_EARLY_EVENTS" },
  };
}

export class UsageError extends Error {}

/** Parses the command line strictly: an unknown flag or a bad number is a usage error, never a default. */
export function chaosSettings(argv: string[]): ChaosSettings {
  const s: ChaosSettings = {
    runs: 100,
    parallel: 1,
    seed: Date.now() % 2 ** 31,
    regions: 1,
    unsafe: [],
    outDir: "chaos-report",
    shrink: true,
  };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    if (flag === "--runs") s.runs = positive(flag, value());
    else if (flag === "--parallel") s.parallel = positive(flag, value());
    else if (flag === "--seed") s.seed = positive(flag, value(), true);
    else if (flag === "--replay") s.replay = value();
    else if (flag === "--out") s.outDir = value();
    else if (flag === "--no-shrink") s.shrink = false;
    else if (flag === "--stall-replication") s.stallReplication = true;
    else if (flag === "--real-world") s.realWorld = true;
    else if (flag === "--for") s.forMinutes = positive(flag, value());
    else if (flag === "--regions") {
      const n = value();
      if (n !== "1" && n !== "2") throw new UsageError(`--regions is 1 or 2, not ${n}`);
      s.regions = n === "2" ? 2 : 1;
    } else if (flag === "--unsafe") {
      const name = value();
      if (!(name in unsafeGuards()))
        throw new UsageError(`--unsafe ${name}: known guards are ${Object.keys(unsafeGuards()).join(", ")}`);
      s.unsafe.push(name);
    } else throw new UsageError(`unknown argument ${flag}`);
  }
  if (s.stallReplication && s.regions !== 2) throw new UsageError("--stall-replication needs --regions 2");
  if (s.realWorld && s.regions !== 2) throw new UsageError("--real-world needs --regions 2");
  if (s.realWorld && s.stallReplication)
    throw new UsageError("--real-world already stalls replication: give one of the two");
  if (s.parallel > 8)
    throw new UsageError("--parallel is at most 8 (each stack is a DynamoDB Local, fauxqs and SES)");
  return s;
}

function positive(flag: string, raw: string, zeroOk = false): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (zeroOk ? 0 : 1))
    throw new UsageError(`${flag} must be a whole number${zeroOk ? "" : " above 0"}, not ${raw}`);
  return n;
}

/** The environment variables and client switches of a set of guards taken away. */
export function switchesOf(unsafe: string[]): { env: Record<string, string>; client: ClientSwitches } {
  const env: Record<string, string> = {};
  let client: ClientSwitches = {};
  for (const name of unsafe) {
    const g = unsafeGuards()[name];
    if (g?.env) env[g.env] = "1";
    if (g?.client) client = { ...client, ...g.client };
  }
  return { env, client };
}
