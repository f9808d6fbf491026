import type { JournalEntry, KeyJournal } from "./key-journal";

/** A journal in memory: for tests and short-lived scripts, since it does not survive a restart. */
export function memoryJournal(): KeyJournal & { entries(): JournalEntry[] } {
  const entries = new Map<string, JournalEntry>();
  return {
    async get(orderId) {
      const entry = entries.get(orderId);
      return entry ? { ...entry } : undefined;
    },
    async put(entry) {
      entries.set(entry.order_id, { ...entry });
    },
    entries: () => [...entries.values()].map((e) => ({ ...e })),
  };
}
