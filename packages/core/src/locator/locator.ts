import type { ItemKey } from "../version/versioned-store";

/** A locator's states: it names where its item lives, or it is the tombstone of an item that was deleted. */
export type LocatorState = "LIVE" | "TOMBSTONE";

/** The state a deleted item's locator keeps for ever: a late retry's "put if absent" still finds it. */
export const TOMBSTONE: LocatorState = "TOMBSTONE";

/**
 * A locator item: it never moves and never expires (no `expires_at`), and names where its item is now. A write
 * that must happen once conditions on the locator, not on the item, because the item can move or be deleted.
 */
export interface Locator {
  key: ItemKey;
  state: LocatorState;
  /** Where the item lives now; none once it is a tombstone. */
  where?: ItemKey;
}

/** What a "put if absent" under a locator did: stored, or found the locator (live or a tombstone) and wrote nothing. */
export type PutOutcome = { stored: true } | { stored: false; locator: Locator };

/**
 * Items written once under a locator (Part 5, "condition on the durable record", branch M): put if the locator
 * is absent, move and delete through it, and a delete leaves the locator as a tombstone.
 */
export interface LocatorStore {
  /** Puts the item at `where` and its locator, if the locator is absent; a retry after a move or delete does nothing. */
  putOnce(locator: ItemKey, where: ItemKey, item: Record<string, unknown>): Promise<PutOutcome>;
  /** Moves the item to `to` and points the locator there; false when the locator is not live at `from`. */
  move(locator: ItemKey, from: ItemKey, to: ItemKey): Promise<boolean>;
  /** Deletes the item and turns its locator into a tombstone; false when the locator was not live. */
  remove(locator: ItemKey): Promise<boolean>;
  read(locator: ItemKey): Promise<Locator | undefined>;
}
