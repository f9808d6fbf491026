import { SESv2Client } from "@aws-sdk/client-sesv2";
import { SNSClient } from "@aws-sdk/client-sns";
import { documentClient } from "../aws/document-client";
import { clock } from "../clock/clock";
import { loadConfig } from "../config/config";
import { DynamoDeviceStore } from "../device/device-store";
import { balanceShardCount } from "../merchant/balance-shards";
import { SesEmailSender } from "../notification/email-sender";
import { DynamoIntentStore } from "../notification/intent-store";
import { DynamoDedupStore } from "../notification/logical-dedup";
import { loadNotifyConfig } from "../notification/notify-config";
import { SnsPushSender } from "../notification/push-sender";
import { DynamoInbox } from "./dynamo-inbox";
import type { WorkerDeps } from "./handle-event";

let deps: WorkerDeps | undefined;

/** The worker's ports: the consumer table only (never the claim table), SNS and SES; built once per process. */
export function workerDeps(env: NodeJS.ProcessEnv = process.env): WorkerDeps {
  if (!deps) {
    const table = loadConfig(env).consumerTable;
    const db = documentClient();
    const notify = loadNotifyConfig(env);
    deps = {
      inbox: new DynamoInbox(db, table, balanceShardCount(env)),
      intents: new DynamoIntentStore(db, table, balanceShardCount(env)),
      devices: new DynamoDeviceStore(db, table),
      // One attempt per call: the notification step retries transient errors itself, within the invocation's
      // remaining time (the SDK's own retries cannot see it), and marks permanent refusals FAILED.
      push: new SnsPushSender(new SNSClient({ maxAttempts: 1 })),
      email: new SesEmailSender(new SESv2Client({ maxAttempts: 1 }), notify.emailFrom),
      dedup: new DynamoDedupStore(db, table),
      policy: notify.policy,
      clock,
    };
  }
  return deps;
}

/** Receives after which SQS moves an event to the DLQ (`EVENTS_MAX_RECEIVE_COUNT`, the stacks' 5). */
export function maxReceiveCount(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.EVENTS_MAX_RECEIVE_COUNT ?? 5);
  return Number.isInteger(n) && n > 0 ? n : 5;
}
