/**
 * Every alarm and every runbook entry point at each other: each signal's runbook title is an entry of the runbook's
 * (docs/runbook.md) "When an alarm pages", that entry names the signal's alarm, and every entry there is the
 * runbook of some alarm.
 */
import type { OnCallSignal } from "../../../stacks/on-call-signals";

export const ALARM_SECTION = "### When an alarm pages";

/** One runbook entry: its bold title and its whole text. */
export interface RunbookEntry {
  title: string;
  text: string;
}

/** The entries of the runbook's alarm section (each a list item that starts with its bold title). */
export function alarmEntries(readme: string): RunbookEntry[] {
  const from = readme.indexOf(`\n${ALARM_SECTION}\n`);
  if (from < 0) return [];
  const rest = readme.slice(from + ALARM_SECTION.length + 2);
  const next = rest.search(/\n#{2,3} /);
  const section = next < 0 ? rest : rest.slice(0, next);
  return section
    .split(/\n(?=- \*\*)/)
    .filter((item) => item.startsWith("- **"))
    .map((text) => ({ title: text.slice(4, text.indexOf("**", 4)), text }));
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** What does not point back: a signal without its entry or named there, an entry no alarm names. */
export function runbookProblems(readme: string, signals: readonly OnCallSignal[]): string[] {
  const entries = alarmEntries(readme);
  const out: string[] = [];
  if (entries.length === 0) out.push(`the runbook has no "${ALARM_SECTION}" section with entries`);
  for (const s of signals) {
    const entry = entries.find((e) => e.title === s.runbook);
    if (!entry) out.push(`${s.id}: no runbook entry **${s.runbook}** under "${ALARM_SECTION}"`);
    else if (!new RegExp(`${literal(s.id)}(\\{[^}]*\\})?Alarm`).test(entry.text))
      out.push(`${s.id}: the entry **${s.runbook}** does not name its alarm (…${s.id}Alarm)`);
  }
  for (const e of entries)
    if (!signals.some((s) => s.runbook === e.title))
      out.push(`the entry **${e.title}** is the runbook of no alarm`);
  return out;
}
