/** One page of one index key, oldest first, and where the next page starts (absent: the key is read to its end). */
export interface IndexPage<T> {
  items: T[];
  next?: Record<string, unknown>;
}

/** Reads one page of one key: at most `limit` items from `start` (absent: the key's oldest). */
export type PageReader<T> = (
  start: Record<string, unknown> | undefined,
  limit: number,
) => Promise<IndexPage<T>>;

interface Cursor<T> {
  read: PageReader<T>;
  buffered: T[];
  next?: Record<string, unknown>;
  done: boolean;
}

/**
 * The oldest `limit` items over several keys, each read oldest first (a k-way merge by `sortKey`): a page of about
 * `limit / keys` from each, and another page of a key only when its buffer runs out before the limit is reached.
 */
// Ordered by age over every key, not key by key: an item's turn depends on its age alone, so no shard waits behind
// another for ever, and a limit cuts off only the youngest. Reads at most `limit` items plus one page per key.
export async function mergeOldestFirst<T>(
  readers: ReadonlyArray<PageReader<T>>,
  sortKey: (item: T) => string,
  limit: number,
): Promise<T[]> {
  const page = Math.max(1, Math.ceil(limit / Math.max(1, readers.length)));
  const cursors: Cursor<T>[] = readers.map((read) => ({ read, buffered: [], done: false }));
  const out: T[] = [];
  while (out.length < limit) {
    // A key with nothing buffered may still hold the oldest item: read its next page before choosing.
    await Promise.all(
      cursors
        .filter((c) => c.buffered.length === 0 && !c.done)
        .map((c) => refill(c, Math.min(page, limit - out.length))),
    );
    const oldest = pickOldest(cursors, sortKey);
    if (!oldest) break;
    out.push(oldest.buffered.shift() as T);
  }
  return out;
}

async function refill<T>(cursor: Cursor<T>, limit: number): Promise<void> {
  const got = await cursor.read(cursor.next, limit);
  cursor.buffered.push(...got.items);
  cursor.next = got.next;
  cursor.done = got.next === undefined;
}

// Ties go to the earlier key, so a pass is deterministic.
function pickOldest<T>(cursors: Cursor<T>[], sortKey: (item: T) => string): Cursor<T> | undefined {
  let best: Cursor<T> | undefined;
  for (const c of cursors) {
    const head = c.buffered[0];
    if (head === undefined) continue;
    if (!best || sortKey(head) < sortKey(best.buffered[0] as T)) best = c;
  }
  return best;
}
