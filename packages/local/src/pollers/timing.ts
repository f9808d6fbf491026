/** Waits `ms`, or less when `signal` aborts, so that a stopping poller never sits out a full pause. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/** Resolves once `ready()` is true, checking every `everyMs`; pollers use it for their test-facing `idle()`. */
export async function waitUntil(ready: () => boolean, everyMs = 5): Promise<void> {
  while (!ready()) await sleep(everyMs);
}

/** A pause that another part of the poller can cut short, for example to look for a closed shard's children now. */
export class Waker {
  private poked = false;
  private wake: (() => void) | undefined;

  /** Waits `ms`, until `poke()` is called (also before the pause began), or until `signal` aborts. */
  async pause(ms: number, signal: AbortSignal): Promise<void> {
    if (this.poked) {
      this.poked = false;
      return;
    }
    const cut = new AbortController();
    this.wake = () => cut.abort();
    await sleep(ms, AbortSignal.any([signal, cut.signal]));
    this.wake = undefined;
    this.poked = false;
  }

  /** Ends the current pause, or the next one if none is under way. */
  poke(): void {
    this.poked = true;
    this.wake?.();
  }
}
