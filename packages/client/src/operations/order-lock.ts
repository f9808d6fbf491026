/**
 * One call at a time per order within a client, so a double tap reads the journal after the first
 * tap wrote its key and sends the same key, rather than making a second one.
 */
export function orderLocks() {
  const tails = new Map<string, Promise<unknown>>();
  return {
    run<T>(orderId: string, work: () => Promise<T>): Promise<T> {
      const run = (tails.get(orderId) ?? Promise.resolve()).then(work, work);
      const tail = run.catch(() => undefined);
      tails.set(orderId, tail);
      void tail.then(() => {
        if (tails.get(orderId) === tail) tails.delete(orderId);
      });
      return run;
    },
  };
}
