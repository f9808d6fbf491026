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
    await api.post("/_local/run/resolver");
    await api.post("/_local/run/sweeps");
    const backlog = (await api.get<BacklogView>("/_local/backlog")).body.total;
    if (backlog === 0 && (await settled())) return Date.now() - started;
    log(`  quiescing: pass ${pass}, backlog ${backlog}, ${((Date.now() - started) / 1000).toFixed(0)} s`);
    await new Promise((done) => setTimeout(done, 2_000));
  }
  return Date.now() - started;
}
