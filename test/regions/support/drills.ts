import { drillFailover } from "../../../packages/local/src/drills/drill-failover";
import type { LocalStack } from "../../../packages/local/src/stack/start-stack";

/** Puts the stack back as a drill found it: the primary active (a planned failback), the PSP's webhooks to it. */
export async function failBack(stack: LocalStack): Promise<void> {
  await stack.replicator?.awaitIdle(30_000);
  const back = await drillFailover(stack, "primary", false, () => undefined);
  if (back.code !== 0) throw new Error(`the failback after the drill failed (${back.mode})`);
  stack.psp.setWebhookUrl(`${stack.apiUrl}/webhooks/psp`);
}
