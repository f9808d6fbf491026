import { parseArgs } from "node:util";
import { SQSClient } from "@aws-sdk/client-sqs";
import { checkQueues, type RedriveSummary, redrive, UnsafeSetup } from "./lib/redrive";
import { refusalOf } from "./lib/script-env";
import { regionToActOn } from "./lib/target/authority";
import { sqsIn } from "./lib/target/clients";
import { findTarget } from "./lib/target/find-target";
import { TargetError } from "./lib/target/target";
import {
  chooseTarget,
  REGION_USAGE,
  regionFlag,
  TARGET_OPTIONS,
  TARGET_USAGE,
} from "./lib/target/target-args";

// Moves one Region's events DLQ's messages back to its events FIFO queue with their original dedup and group ids:
//   npm run redrive-dlq -- --local|--stage <s> [--region primary|standby] [--dry-run]
// The Region is the one the authority names active unless --region names the other (a passive Region's worker
// hands what it receives over to the active one). Explicit queues instead of a target:
//   npm run redrive-dlq -- --dlq-url <url> --queue-url <url> --region <aws region> [--endpoint <url>]
// Exit codes: 0 everything examined was moved (or would be, with --dry-run); 1 something was left in the DLQ;
// 2 usage or setup: no target, or a queue or the Region not given (by flag or environment) is never assumed.
const usage = `usage: npm run redrive-dlq -- --local|--stage <s> [--region <role>] [options]
${TARGET_USAGE}
${REGION_USAGE}
  instead of --local/--stage, the queues by hand (or from the environment with --env):
  --dlq-url <url>         the FIFO dead-letter queue (env EVENTS_DLQ_URL)
  --queue-url <url>       the events FIFO queue it belongs to (env EVENTS_QUEUE_URL)
  --endpoint <url>        an SQS endpoint, e.g. the local stack's fauxqs (env AWS_ENDPOINT_URL_SQS)
  --region <region>       with them: the queues' AWS Region (env AWS_REGION; required)
  --dry-run               show what would move; move nothing
  --max <n>               examine at most n messages (default 1000)
  --dedup-window-s <s>    the queue's dedup interval (SQS FIFO: 300); lower it only for an emulator whose dedup memory was cleared`;

interface Options {
  sqs: SQSClient;
  dlqUrl: string;
  queueUrl: string;
  /** What the run acts on, for its first line. */
  where: string;
  dryRun: boolean;
  max: number;
  windowS: number;
}

type Values = ReturnType<typeof parse>["values"];

function parse() {
  return parseArgs({
    options: {
      ...TARGET_OPTIONS,
      env: { type: "boolean", default: false },
      "dlq-url": { type: "string" },
      "queue-url": { type: "string" },
      endpoint: { type: "string" },
      region: { type: "string" },
      "dry-run": { type: "boolean", default: false },
      max: { type: "string", default: "1000" },
      "dedup-window-s": { type: "string", default: "300" },
      help: { type: "boolean", default: false },
    },
  });
}

/** The queues and client: the target Region's (`--local`, `--stage`), or the explicit flags, then environment. */
async function queuesOf(v: Values): Promise<Pick<Options, "sqs" | "dlqUrl" | "queueUrl" | "where">> {
  const explicit = v.env === true || v["dlq-url"] !== undefined || v["queue-url"] !== undefined;
  const target = await findTarget(chooseTarget(v, explicit));
  if (target) {
    if (v.endpoint !== undefined)
      throw new TargetError("refused: --endpoint goes with --dlq-url and --queue-url");
    const { role, why } = await regionToActOn(target, regionFlag(v.region));
    const r = target.regions[role];
    return {
      sqs: sqsIn(target, r.region),
      dlqUrl: r.eventsDlq,
      queueUrl: r.eventsQueue,
      where: `the ${role} Region (${r.region}; ${why}) of ${target.where}`,
    };
  }
  // Flags win over the environment; what neither gives is refused, not defaulted.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(v["dlq-url"] ? { EVENTS_DLQ_URL: v["dlq-url"] } : {}),
    ...(v["queue-url"] ? { EVENTS_QUEUE_URL: v["queue-url"] } : {}),
    ...(v.region ? { AWS_REGION: v.region } : {}),
  };
  const refusal = refusalOf({ required: ["EVENTS_DLQ_URL", "EVENTS_QUEUE_URL", "AWS_REGION"] }, env);
  if (refusal) throw new TargetError(refusal);
  const endpoint = v.endpoint ?? process.env.AWS_ENDPOINT_URL_SQS;
  const region = env.AWS_REGION as string;
  return {
    sqs: new SQSClient({ region, ...(endpoint ? { endpoint, useQueueUrlAsEndpoint: false } : {}) }),
    dlqUrl: env.EVENTS_DLQ_URL as string,
    queueUrl: env.EVENTS_QUEUE_URL as string,
    where: `the queues given (${region})`,
  };
}

/** The options; a number is the exit code to stop with (help, bad usage, no target). */
async function readOptions(): Promise<Options | number> {
  let v: Values;
  try {
    v = parse().values;
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  if (v.help) {
    console.error(usage);
    return 0;
  }
  const max = Number(v.max);
  const windowS = Number(v["dedup-window-s"]);
  if (!(max > 0 && windowS >= 0)) {
    console.error(usage);
    return 2;
  }
  try {
    return { ...(await queuesOf(v)), dryRun: v["dry-run"] ?? false, max, windowS };
  } catch (err) {
    if (!(err instanceof TargetError)) throw err;
    console.error(`${err.message}\n${usage}`);
    return 2;
  }
}

async function main(): Promise<number> {
  const o = await readOptions();
  if (typeof o === "number") return o;
  const { sqs } = o;
  try {
    await checkQueues(sqs, o.dlqUrl, o.queueUrl);
    console.log(`${o.dryRun ? "dry run: " : ""}redriving ${o.dlqUrl} -> ${o.queueUrl}, ${o.where}`);
    const log = (line: string) => console.log(line);
    const summary = await redrive({ ...o, sqs, dedupWindowS: o.windowS, now: Date.now, log });
    report(summary, o.dryRun);
    return summary.left.length > 0 ? 1 : 0;
  } catch (err) {
    console.error(
      err instanceof UnsafeSetup ? `refused: ${err.message}` : `failed: ${(err as Error).message}`,
    );
    return 2;
  } finally {
    sqs.destroy();
  }
}

function report(s: RedriveSummary, dryRun: boolean): void {
  if (s.examined === 0) return void console.log("summary: the DLQ is empty; nothing to redrive");
  const moved = dryRun ? `would move ${s.wouldMove}` : `moved ${s.moved}`;
  const unsafe = s.left.length;
  console.log(
    `summary: examined ${s.examined}, ${moved}, left ${unsafe} in the DLQ${unsafe > 0 ? " (UNSAFE to move now; see the lines above)" : ""}`,
  );
}

process.exitCode = await main();
