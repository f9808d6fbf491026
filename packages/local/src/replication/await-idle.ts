import type { Poller } from "../pollers/poller";
import { sleep } from "../pollers/timing";

/** What awaitIdle watches. */
export interface IdleParts {
  pollers: Poller[];
  /** True when nothing read waits to be applied and every apply was read back from its stream. */
  quiet: () => boolean;
  /** What is still pending, for the timeout's message. */
  describe: () => string;
}

/** Resolves once every stream was read to its end and nothing is pending; rejects after `timeoutMs`. */
export async function awaitIdle(parts: IdleParts, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const left = deadline - Date.now();
    const read = left > 0 && (await within(Promise.all(parts.pollers.map((p) => p.idle())), left));
    if (read && parts.quiet()) return;
    if (Date.now() >= deadline) {
      throw new Error(`replication not idle after ${timeoutMs} ms: ${parts.describe()}`);
    }
    await sleep(Math.min(10, Math.max(0, deadline - Date.now())));
  }
}

async function within(work: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([work.then(() => true), timedOut]);
  } finally {
    clearTimeout(timer);
  }
}
