import type { ReceivedMessage } from "./receive";

/** A ReceiveMessage that found nothing and waits, in virtual time, for a message or for its wait to end. */
interface Waiter {
  queue: string;
  deadline: number;
  /** Tries to take messages now; answers how many it took (0: keep waiting). */
  take(): ReceivedMessage[];
  resolve(messages: ReceivedMessage[]): void;
  reject(err: unknown): void;
  detach(): void;
}

/** The parked long polls of a model, served in the order they arrived (deterministic). */
export class LongPolls {
  private waiters: Waiter[] = [];

  /** Parks a receive until `serve` finds it messages or `expire` passes its deadline. */
  park(
    queue: string,
    deadline: number,
    take: () => ReceivedMessage[],
    signal?: AbortSignal,
  ): Promise<ReceivedMessage[]> {
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.remove(waiter);
        reject(Object.assign(new Error("Request aborted"), { name: "AbortError" }));
      };
      const waiter: Waiter = {
        queue,
        deadline,
        take,
        resolve,
        reject,
        detach: () => signal?.removeEventListener("abort", onAbort),
      };
      if (signal?.aborted) return onAbort();
      signal?.addEventListener("abort", onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  /** Gives the queue's waiters, oldest first, what a receive now would get. */
  serve(queue: string): void {
    for (const w of [...this.waiters]) {
      if (w.queue !== queue) continue;
      let got: ReceivedMessage[];
      try {
        got = w.take();
      } catch (err) {
        this.finish(w);
        w.reject(err);
        continue;
      }
      if (got.length === 0) break;
      this.finish(w);
      w.resolve(got);
    }
  }

  /** Ends, empty-handed, the waits whose deadline is before `before` (or at/before `atOrBefore`). */
  expire(queue: string | undefined, test: (deadline: number) => boolean): void {
    for (const w of [...this.waiters]) {
      if ((queue !== undefined && w.queue !== queue) || !test(w.deadline)) continue;
      this.finish(w);
      w.resolve([]);
    }
  }

  /** Ends every wait on a queue that no longer exists. */
  fail(queue: string, err: unknown): void {
    for (const w of [...this.waiters]) {
      if (w.queue !== queue) continue;
      this.finish(w);
      w.reject(err);
    }
  }

  /** The earliest deadline of a parked wait. */
  nextDeadline(): number | undefined {
    let next: number | undefined;
    for (const w of this.waiters) if (next === undefined || w.deadline < next) next = w.deadline;
    return next;
  }

  /** How many receives are parked (for a scheduler's idleness check). */
  get size(): number {
    return this.waiters.length;
  }

  private finish(w: Waiter): void {
    this.remove(w);
    w.detach();
  }

  private remove(w: Waiter): void {
    this.waiters = this.waiters.filter((x) => x !== w);
  }
}
