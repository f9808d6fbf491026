import { startDynamoDbPool } from "../dynamodb-pool";
import { requirementsMessage, unmetRequirements } from "./check-requirements";

/**
 * Vitest's global setup: checks the machine's requirements before any test file starts and stops the run
 * with one message saying what to install, instead of a test failing on ENOENT many minutes in.
 */
export default async function preflight(): Promise<(() => Promise<void>) | undefined> {
  const unmet = await unmetRequirements();
  if (unmet.length === 0) return startDynamoDbPool(poolSize());
  process.stderr.write(`\n${requirementsMessage(unmet)}\n`);
  // Exit here: a throw would reach the console as vitest's "Unhandled Error" after a misleading
  // "No test files found", burying the message.
  process.exit(1);
}

/** The warm DynamoDB Locals the files borrow: one per worker of the two projects that run together (EO_TEST_DYNAMODB_POOL_SIZE, 0 = none). */
function poolSize(): number {
  const n = Number(process.env.EO_TEST_DYNAMODB_POOL_SIZE ?? 4);
  return Number.isInteger(n) && n >= 0 ? n : 4;
}
