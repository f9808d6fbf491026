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

/** Where a stream reader waits for new records after a read that found none. */
export interface IdleShard {
  streamArn: string;
  shardId: string;
}

/** How a stream reader waits after an empty read: `ms`, or less when `signal` aborts. */
export type IdleWait = (shard: IdleShard, ms: number, signal: AbortSignal) => Promise<void>;

let idleWait: IdleWait = (_shard, ms, signal) => sleep(ms, signal);

/** Waits after an empty read of a shard, as the process's idle wait says (by default the poll interval). */
export function waitAfterEmptyRead(shard: IdleShard, ms: number, signal: AbortSignal): Promise<void> {
  return idleWait(shard, ms, signal);
}

/**
 * Replaces how stream readers wait after an empty read (undefined restores the poll interval). The simulation waits
 * for the stream's next record instead, then a poll interval's share, so that an idle stream costs no events.
 */
export function useIdleWait(wait: IdleWait | undefined): void {
  idleWait = wait ?? ((_shard, ms, signal) => sleep(ms, signal));
}
