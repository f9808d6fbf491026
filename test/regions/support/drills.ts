import { drillFailover } from "../../../packages/local/src/drills/drill-failover";
import type { LocalStack } from "../../../packages/local/src/stack/start-stack";

/** Puts the stack back as a drill found it: the primary active (a planned failback), the PSP's webhooks to it. */
export async function failBack(stack: LocalStack): Promise<void> {
  await stack.replicator?.awaitIdle(30_000);
  // A short lag for the failback alone: its drain waits 10 × the lag measured, which is not what these tests test.
  const lag = stack.replicator?.status().lag_ms ?? 0;
  stack.replicator?.setLag(200);
  try {
    const back = await drillFailover(stack, "primary", false, () => undefined);
    // 3 is done with something still arriving: a drill may leave an inherited row that only a lookup settles, later.
    if (back.code !== 0 && back.code !== 3)
      throw new Error(`the failback after the drill failed (${back.mode}, exit ${back.code})`);
  } finally {
    stack.replicator?.setLag(lag);
  }
  stack.psp.setWebhookUrl(`${stack.apiUrl}/webhooks/psp`);
}

/**
 * The replication lag of the drills under test: the seed's 1.0 s is what `npm run drill` plays, but on a busy 2-core
 * CI machine a settlement can take longer than that to reach the relay, and the drill would then miss its window
 * (R1 must fail before its last writes replicate). The order of events is the same; only the window is wider.
 */
export const DRILL_TEST_LAG_MS = 4_000;
