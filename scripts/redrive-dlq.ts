import { parseArgs } from "node:util";
import { SQSClient } from "@aws-sdk/client-sqs";
import { checkQueues, type RedriveSummary, redrive, UnsafeSetup } from "./lib/redrive";
import { refusalOf } from "./lib/script-env";

// Moves the events DLQ's messages back to the events FIFO queue with their original dedup and group ids:
//   npx tsx scripts/redrive-dlq.ts --dlq-url <url> --queue-url <url> [--endpoint <url>] [--region <r>] [--dry-run]
// Exit codes: 0 everything examined was moved (or would be, with --dry-run); 1 something was left in the DLQ;
// 2 usage or setup: a queue or the Region not given (by flag or environment) is never assumed.
const usage = `usage: npx tsx scripts/redrive-dlq.ts [options]
  --dlq-url <url>         the FIFO dead-letter queue (env EVENTS_DLQ_URL)
  --queue-url <url>       the events FIFO queue it belongs to (env EVENTS_QUEUE_URL)
  --endpoint <url>        an SQS endpoint, e.g. the local stack's fauxqs (env AWS_ENDPOINT_URL_SQS)
  --region <region>       the queues' Region (env AWS_REGION; required)
  --dry-run               show what would move; move nothing
  --max <n>               examine at most n messages (default 1000)
  --dedup-window-s <s>    the queue's dedup interval (SQS FIFO: 300); lower it only for an emulator whose dedup memory was cleared`;

interface Options {
  dlqUrl: string;
  queueUrl: string;
  endpoint?: string;
  region: string;
  dryRun: boolean;
  max: number;
  windowS: number;
}

/** The options from flags, then environment; a number is the exit code to stop with (help or bad usage). */
function readOptions(): Options | number {
  const { values: v } = parseArgs({
    options: {
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
  if (v.help) {
    console.error(usage);
    return 0;
  }
  // Flags win over the environment; what neither gives is refused, not defaulted.
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    ...(v["dlq-url"] ? { EVENTS_DLQ_URL: v["dlq-url"] } : {}),
    ...(v["queue-url"] ? { EVENTS_QUEUE_URL: v["queue-url"] } : {}),
    ...(v.region ? { AWS_REGION: v.region } : {}),
  };
  const refusal = refusalOf({ required: ["EVENTS_DLQ_URL", "EVENTS_QUEUE_URL", "AWS_REGION"] }, env);
  if (refusal) {
    console.error(`${refusal}\n${usage}`);
    return 2;
  }
  const o = {
    dlqUrl: env.EVENTS_DLQ_URL as string,
    queueUrl: env.EVENTS_QUEUE_URL as string,
    endpoint: v.endpoint ?? process.env.AWS_ENDPOINT_URL_SQS,
    region: env.AWS_REGION as string,
    dryRun: v["dry-run"] ?? false,
    max: Number(v.max),
    windowS: Number(v["dedup-window-s"]),
  };
  if (o.max > 0 && o.windowS >= 0) return o;
  console.error(usage);
  return 2;
}

async function main(): Promise<number> {
  const o = readOptions();
  if (typeof o === "number") return o;
  const sqs = new SQSClient({
    region: o.region,
    ...(o.endpoint ? { endpoint: o.endpoint, useQueueUrlAsEndpoint: false } : {}),
  });
  try {
    await checkQueues(sqs, o.dlqUrl, o.queueUrl);
    console.log(`${o.dryRun ? "dry run: " : ""}redriving ${o.dlqUrl} -> ${o.queueUrl}`);
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
