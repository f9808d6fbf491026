import { afterAll, beforeAll } from "vitest";
import { startEmulators } from "../../packages/local/src/stack/start-emulators";
import {
  type LocalStack,
  type StackOptions,
  startLocalStack,
} from "../../packages/local/src/stack/start-stack";
import { borrowDynamoDb } from "./dynamodb-pool";

/**
 * Starts one local stack for the test file (one per process) and stops it after the file. A test of one Region
 * gets the primary alone (`standby: true` for both Regions and the replication between them): the standby's
 * runtime and six stream readers cost a 2-core machine more than the tests that do not look at it are worth.
 */
export function useLocalStack(opts: StackOptions = {}): () => LocalStack {
  let stack: LocalStack | undefined;
  beforeAll(async () => {
    stack = await startLocalStack({
      resolverEveryMs: 0,
      sweepsEveryMs: 0,
      webhookRetryBaseMs: 100,
      standby: false,
      // A warm DynamoDB Local from the suite's pool when one is free (its tables cleared), else one of its own.
      startEmulators: (ports) => startEmulators(ports, borrowDynamoDb),
      ...opts,
    });
  }, 120_000);
  afterAll(async () => {
    await stack?.stop();
  }, 60_000);
  return () => {
    if (!stack) throw new Error("the local stack is not running");
    return stack;
  };
}
