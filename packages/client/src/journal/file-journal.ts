import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, rm } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import type { JournalEntry, KeyJournal } from "./key-journal";

interface JournalFile {
  version: 1;
  entries: Record<string, JournalEntry>;
}

// One write at a time per file in this process, so two puts never lose each other's entry.
const queues = new Map<string, Promise<unknown>>();

function serialized<T>(path: string, work: () => Promise<T>): Promise<T> {
  const run = (queues.get(path) ?? Promise.resolve()).then(work, work);
  queues.set(
    path,
    run.catch(() => undefined),
  );
  return run;
}

async function readJournal(path: string): Promise<JournalFile> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { version: 1, entries: {} };
    throw err;
  }
  // A journal that cannot be read must stop the client: reading it as empty would make new keys
  // for orders that may already be charged.
  const parsed = JSON.parse(text) as Partial<JournalFile>;
  if (parsed.version !== 1 || typeof parsed.entries !== "object" || parsed.entries === null) {
    throw new Error(`the key journal ${path} is not a version 1 journal`);
  }
  return parsed as JournalFile;
}

/** Writes the whole journal to a temporary file, syncs it, then renames it over the old one. */
async function writeAtomically(path: string, journal: JournalFile): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const temp = `${path}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`;
  const handle = await open(temp, "w");
  try {
    await handle.writeFile(`${JSON.stringify(journal, null, 2)}\n`, "utf8");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (err) {
    await rm(temp, { force: true });
    throw err;
  }
}

/**
 * A journal in one JSON file (Node only), written atomically: a reader sees the old file or the new
 * one, never half of one, and a put resolves once the file is synced. One process per file.
 */
export function fileJournal(path: string): KeyJournal {
  const file = resolve(path);
  return {
    async get(orderId) {
      const journal = await serialized(file, () => readJournal(file));
      return journal.entries[orderId];
    },
    put(entry) {
      return serialized(file, async () => {
        const journal = await readJournal(file);
        journal.entries[entry.order_id] = { ...entry };
        await writeAtomically(file, journal);
      });
    },
  };
}
