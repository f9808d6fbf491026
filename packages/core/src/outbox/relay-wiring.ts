import { SQSClient } from "@aws-sdk/client-sqs";
import { documentClient } from "../aws/document-client";
import { clock } from "../clock/clock";
import { loadConfig } from "../config/config";
import { SqsEventPublisher } from "./event-publisher";
import { DynamoOutboxStore } from "./outbox-store";
import type { RelayDeps } from "./relay";

let deps: RelayDeps | undefined;

/** The relay's and the sweep's ports on SQS and the ledger table, built once per process from the environment. */
export function relayDeps(): RelayDeps {
  if (!deps) {
    const config = loadConfig();
    deps = {
      publisher: new SqsEventPublisher(
        new SQSClient({ maxAttempts: 3, useQueueUrlAsEndpoint: false }),
        config.eventsQueueUrl,
      ),
      outbox: new DynamoOutboxStore(documentClient(), config.ledgerTable),
      clock,
    };
  }
  return deps;
}

/**
 * How old an outbox item must be before the sweep re-sends it (`OUTBOX_SWEEP_AFTER_S`, default 120 s, or the
 * invocation's own `olderThanS`, which the failover script sets to 0).
 */
export function sweepSettings(
  env: NodeJS.ProcessEnv = process.env,
  olderThanS?: unknown,
): { olderThanMs: number; limit: number } {
  const after = Number(olderThanS ?? env.OUTBOX_SWEEP_AFTER_S ?? 120);
  const limit = Number(env.OUTBOX_SWEEP_LIMIT ?? 500);
  if (!Number.isFinite(after) || after < 0)
    throw new Error(
      `the outbox sweep's age (${String(olderThanS ?? env.OUTBOX_SWEEP_AFTER_S)}) is not a number of seconds`,
    );
  if (!Number.isInteger(limit) || limit < 1)
    throw new Error(`OUTBOX_SWEEP_LIMIT=${env.OUTBOX_SWEEP_LIMIT} must be a positive integer`);
  return { olderThanMs: after * 1000, limit };
}
