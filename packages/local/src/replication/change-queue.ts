import type { ItemChange, Role } from "./replication-types";

/** The queue an item's changes wait in: one per item and target Region, so that they apply in order. */
export function slotOf(change: ItemChange): string {
  return `${change.to}|${change.key}`;
}

/** The changes read from a stream but not yet applied (or lost to a later write) in the other Region. */
export class ChangeQueue {
  private readonly bySlot = new Map<string, ItemChange[]>();
  private count = 0;

  /** Queues a change behind the item's earlier ones. */
  add(change: ItemChange): void {
    const slot = slotOf(change);
    const list = this.bySlot.get(slot) ?? [];
    list.push(change);
    this.bySlot.set(slot, list);
    this.count++;
  }

  /** The oldest change of each item: only it may be applied. */
  *heads(): IterableIterator<[string, ItemChange]> {
    for (const [slot, list] of this.bySlot) if (list[0]) yield [slot, list[0]];
  }

  /** Removes an item's oldest change, once it was applied or lost to a later write. */
  finish(slot: string): void {
    const list = this.bySlot.get(slot);
    if (!list?.shift()) return;
    this.count--;
    if (list.length === 0) this.bySlot.delete(slot);
  }

  /** How many changes wait. */
  size(): number {
    return this.count;
  }

  /** How many writes made in `role` wait to be shipped to the other Region. */
  unshipped(role: Role): number {
    let n = 0;
    for (const list of this.bySlot.values()) n += list.filter((c) => c.from === role && !c.repair).length;
    return n;
  }
}
