/**
 * What the app's local journal knows about an order's key. `pending`: made and maybe sent;
 * `processing`: the server said it is not final yet, or no answer came; `voided`: resolve made sure
 * the key can never charge, so the next pay of the order makes a new one.
 */
export type JournalState = "pending" | "processing" | "succeeded" | "declined" | "voided";

/** One order's key, as the journal keeps it. Holds no card data: the order body is never stored. */
export interface JournalEntry {
  /** The app's own order reference: the journal's key. */
  order_id: string;
  /** The Idempotency-Key, born before the first send (Part 2). */
  key: string;
  state: JournalState;
  payment_id?: string;
  /** Milliseconds since the epoch, on the client's clock. */
  created_at: number;
  updated_at: number;
}

/**
 * The storage port of the key journal, keyed by order reference. `put` must resolve only once the
 * entry is durable (it survives the app being killed), since the client sends nothing until it has.
 * A React Native app implements it over its own storage (AsyncStorage, MMKV, SQLite).
 */
export interface KeyJournal {
  get(orderId: string): Promise<JournalEntry | undefined>;
  put(entry: JournalEntry): Promise<void>;
}
