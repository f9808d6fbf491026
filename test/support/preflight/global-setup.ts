import { requirementsMessage, unmetRequirements } from "./check-requirements";

/**
 * Vitest's global setup: checks the machine's requirements before any test file starts and stops the run
 * with one message saying what to install, instead of a test failing on ENOENT many minutes in.
 */
export default async function preflight(): Promise<void> {
  const unmet = await unmetRequirements();
  if (unmet.length === 0) return;
  process.stderr.write(`\n${requirementsMessage(unmet)}\n`);
  // Exit here: a throw would reach the console as vitest's "Unhandled Error" after a misleading
  // "No test files found", burying the message.
  process.exit(1);
}
