/** Real-time waits that `stop()` can cancel, so a stopped PSP leaves no timer behind. */
export interface Sleeper {
  sleep(ms: number): Promise<void>;
  cancelAll(): void;
  /** How many waits are pending now. */
  held(): number;
}

/** Thrown into a pending wait when the PSP stops; the waiting request is abandoned, not processed. */
export class SleepCancelled extends Error {
  constructor() {
    super("fake PSP stopped while a request was delayed");
  }
}

/** Creates a sleeper whose pending and later waits reject with SleepCancelled once cancelAll is called. */
export function createSleeper(): Sleeper {
  const pending = new Map<NodeJS.Timeout, () => void>();
  let cancelled = false;
  return {
    sleep(ms) {
      return new Promise<void>((resolve, reject) => {
        // A request that reaches its delay after stop() must not start a timer nobody will clear.
        if (cancelled) return reject(new SleepCancelled());
        const timer = setTimeout(() => {
          pending.delete(timer);
          resolve();
        }, ms);
        pending.set(timer, () => reject(new SleepCancelled()));
      });
    },
    held: () => pending.size,
    cancelAll() {
      cancelled = true;
      for (const [timer, cancel] of pending) {
        clearTimeout(timer);
        cancel();
      }
      pending.clear();
    },
  };
}
