import type { BacklogView, LocalApi } from "./local-api";

/** How long the generator waits for the stack to settle everything after the last phone is done. */
export const QUIET_WITHIN_MS = 180_000;

/**
 * Runs the resolver and the sweeps until the ledger's backlog is empty and `settled()` holds (notifications
 * delivered), as the scheduled jobs would; answers how long that took, or throws when it never got quiet.
 */
export async function quiesce(
  api: LocalApi,
  settled: () => Promise<boolean>,
  log: (line: string) => void,
  withinMs = QUIET_WITHIN_MS,
): Promise<number> {
  const started = Date.now();
  for (let pass = 1; Date.now() - started < withinMs; pass++) {
    // An overloaded stack may not answer within a read's timeout: that is a pass that found it busy, not an end.
    const backlog = await onePass(api).catch(() => undefined);
    if (backlog === 0 && (await settled().catch(() => false))) return Date.now() - started;
    const seen = backlog === undefined ? "the stack did not answer in time" : `backlog ${backlog}`;
    log(`  quiescing: pass ${pass}, ${seen}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await new Promise((done) => setTimeout(done, 2_000));
  }
  return Date.now() - started;
}

async function onePass(api: LocalApi): Promise<number> {
  await api.post("/_local/run/resolver");
  await api.post("/_local/run/sweeps");
  return (await api.get<BacklogView>("/_local/backlog")).body.total;
}
