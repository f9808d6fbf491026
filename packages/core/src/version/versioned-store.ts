/** The key of an item that carries a version from one counter. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** What an item holds: the value written with the highest version it accepted. */
export interface Versioned<T> {
  version: number;
  value: T;
}

/** A write that lost to a newer (or equal) version: what the item holds instead, to answer from. */
export type VersionedOutcome<T> = { applied: true } | { applied: false; current: Versioned<T> | undefined };

/**
 * Values written under versions from one counter (Part 5, "versions from one counter"): a write lands only if its
 * version is above the item's high-water mark. The item never expires, so the mark outlives every resend.
 */
export interface VersionedStore<T> {
  /** Writes `value` at `version` if the item has accepted only lower versions; else answers what it holds. */
  applyIfNewer(key: ItemKey, version: number, value: T): Promise<VersionedOutcome<T>>;
  read(key: ItemKey): Promise<Versioned<T> | undefined>;
}
