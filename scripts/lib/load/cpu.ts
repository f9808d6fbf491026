import { readFile } from "node:fs/promises";

const TICKS_PER_S = 100;

/** CPU seconds (user + system) a process has used so far, from /proc; undefined where /proc cannot tell. */
export async function cpuSecondsOf(pid: number): Promise<number | undefined> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8");
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** CPU seconds by name for a set of processes, to diff before and after the load. */
export async function cpuSnapshot(pids: Record<string, number>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [name, pid] of Object.entries(pids)) {
    const s = await cpuSecondsOf(pid);
    if (s !== undefined) out[name] = s;
  }
  return out;
}

/** What each process spent between two snapshots. */
export function cpuSpent(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after).map(([name, s]) => [name, Math.round((s - (before[name] ?? 0)) * 100) / 100]),
  );
}
