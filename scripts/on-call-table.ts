/**
 * Writes the runbook's alarm table (docs/runbook.md) from the on-call signals (stacks/on-call-signals.ts), or with
 * --check says whether it is current and whether every alarm and runbook entry point at each other.
 * Exit codes: 0 written or current, 1 out of date or a broken link (--check), 2 usage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { ON_CALL_SIGNALS } from "../stacks/on-call-signals";
import { alarmTable, tableCells, tableInReadme } from "./lib/on-call/alarm-table";
import { runbookProblems } from "./lib/on-call/runbook-links";

const args = process.argv.slice(2);
if (args.some((a) => a !== "--check")) {
  console.error("usage: npm run on-call-table [-- --check]");
  process.exit(2);
}
const path = resolve(import.meta.dirname, "..", "docs", "runbook.md");
const readme = readFileSync(path, "utf8");
const fresh = alarmTable(ON_CALL_SIGNALS);
const current = tableInReadme(readme);
if (current === undefined) {
  console.error(
    "docs/runbook.md has no alarm table markers: add them under ## On call, then run npm run on-call-table",
  );
  process.exit(1);
}
const same = JSON.stringify(tableCells(current)) === JSON.stringify(tableCells(fresh));
const updated = same ? readme : readme.replace(current, fresh);
if (!same && !args.includes("--check")) writeFileSync(path, updated);
const problems = runbookProblems(updated, ON_CALL_SIGNALS);
for (const p of problems) console.error(`  ✗ ${p}`);
const table = same
  ? "current"
  : args.includes("--check")
    ? "OUT OF DATE (run npm run on-call-table)"
    : "written";
console.log(
  `alarm table: ${table}, ${ON_CALL_SIGNALS.length} alarms; runbook links: ${problems.length} broken`,
);
process.exit((!same && args.includes("--check")) || problems.length > 0 ? 1 : 0);
