import type { RunRecord } from "../chaos/history";
import type { SimSettings } from "./sim-settings";

/** What a run of `npm run sim` did, for its summary and summary.json. */
export interface SimSummary {
  seed: number;
  runs: number;
  /** Schedules played by kind (one-Region, two-Region classic, two-Region real-world). */
  byKind: Record<string, number>;
  seconds: number;
  schedulesPerMinute: number;
  /**
   * The rate after the run's first 30 s (every process started, its hot code compiled): what a long run sustains,
   * without each process's start (absent in a run too short to tell).
   */
  steady?: { perMinute: number; afterSeconds: number };
  virtualSeconds: number;
  faultsFired: Record<string, number>;
  violations: Array<{ index: number; checks: string[]; file: string }>;
  unsafe: string[];
  stoppedBy?: string;
}

/** The one command that plays schedule `index` of the run again, byte for byte. */
export function replayCommand(s: SimSettings, index: number): string {
  const unsafe = s.unsafe.map((u) => ` --unsafe ${u}`).join("");
  // The PSP's dialect is the stack's environment (PSP=stripe plays Stripe's, with its refunds that fail later).
  const dialect = process.env.PSP === "stripe" ? "PSP=stripe " : "";
  return `${dialect}npm run sim -- --seed ${s.seed} --regions ${s.regions} --nemesis ${s.nemesis} --replay-index ${index}${unsafe}`;
}

/** The summary, readable at a glance. */
export function summaryLines(s: SimSummary): string[] {
  const lines = [
    `\nsummary (seed ${s.seed}${s.unsafe.length ? `, guards taken away: ${s.unsafe.join(", ")}` : ""})`,
    `  schedules     ${s.runs} in ${s.seconds} s: ${s.schedulesPerMinute} a minute (${Object.entries(s.byKind)
      .sort()
      .map(([kind, n]) => `${n} ${kind}`)
      .join(", ")})`,
    ...(s.steady
      ? [
          `  steady rate   ${s.steady.perMinute} a minute after the first ${s.steady.afterSeconds} s (each process's start: modules loaded, hot code compiled)`,
        ]
      : []),
    `  virtual time  ${Math.round(s.virtualSeconds)} s played (${(s.virtualSeconds / Math.max(1, s.seconds)).toFixed(1)}x real time)`,
    `  violations    ${s.violations.length}`,
  ];
  if (s.stoppedBy)
    lines.push(`  stopped early by ${s.stoppedBy}: the schedules above are every one that finished`);
  lines.push("  faults fired by kind:");
  for (const [k, n] of Object.entries(s.faultsFired).sort((a, b) => b[1] - a[1]))
    lines.push(`    ${k.padEnd(40)} ${String(n).padStart(8)}`);
  return lines;
}

/** A run's history, one line per entry, as `npm run chaos` prints it. */
export function historyLines(record: Pick<RunRecord, "history">): string[] {
  return record.history.map(
    (e) =>
      `  ${String(e.at_ms).padStart(6)} ms  ${e.process.padEnd(16)} ${e.type.padEnd(6)} ${e.op}${e.key ? ` ${e.key}` : ""}${e.payment_id ? ` ${e.payment_id}` : ""}${e.status !== undefined ? ` → ${e.status}` : ""}${e.state ? ` ${e.state}` : ""}${e.replayed ? " (replayed)" : ""}${e.detail && e.type !== "ok" ? ` (${e.detail})` : ""}`,
  );
}
