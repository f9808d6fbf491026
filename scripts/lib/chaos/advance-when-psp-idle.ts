import type { ChaosApi } from "./chaos-api";

/** How long the runner waits for the PSP to let go of a held request: longer than any delay a schedule injects. */
const HELD_WAIT_MS = 5_000;

/**
 * Moves the shared clock on once the fake PSP holds no request in an injected delay. A clock jump stands for
 * minutes or hours passing, and no real PSP request lasts that long; a charge still held in real time while the
 * clock jumped reached the PSP "hours" late, after a resolver had waited out the settle time of a lookup that found
 * nothing and failed the payment (seed 1221, run 155: a local artefact, not a gap in the design, which assumes the
 * settle time outlasts any PSP request).
 */
export async function advanceWhenPspIdle(api: ChaosApi, seconds: number): Promise<void> {
  const giveUpAt = Date.now() + HELD_WAIT_MS;
  while (Date.now() < giveUpAt) {
    const { held = 0 } = await api.local<{ held?: number }>("GET", "/psp/stats");
    if (held === 0) break;
    await new Promise((r) => setTimeout(r, 20));
  }
  await api.local("POST", "/clock", { advance_s: seconds });
}
