/**
 * Writes the deploy page's handler table (docs/deploying.md) from stacks/handlers.ts, or with --check says whether
 * it is current, printing the rows that differ. Exit codes: 0 written or current, 1 out of date (--check) or no
 * markers, 2 usage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { handlers } from "../stacks/handlers";
import { handlerTable, tableDiff, tableInDoc } from "./lib/handler-table";

const args = process.argv.slice(2);
if (args.some((a) => a !== "--check")) {
  console.error("usage: npm run handler-table [-- --check]");
  process.exit(2);
}
const check = args.includes("--check");
const path = resolve(import.meta.dirname, "..", "docs", "deploying.md");
const doc = readFileSync(path, "utf8");
const current = tableInDoc(doc);
if (current === undefined) {
  console.error("docs/deploying.md has no handler table markers: add them, then run npm run handler-table");
  process.exit(1);
}
const fresh = handlerTable(handlers);
const diff = tableDiff(current, fresh);
if (diff.length > 0 && !check) writeFileSync(path, doc.replace(current, fresh));
if (diff.length > 0 && check) {
  console.error(
    "docs/deploying.md's handler table differs from stacks/handlers.ts (- on the page, + generated):",
  );
  for (const line of diff) console.error(`  ${line}`);
}
const state = diff.length === 0 ? "current" : check ? "OUT OF DATE (run npm run handler-table)" : "written";
console.log(`handler table: ${state}, ${handlers.length} handlers`);
process.exit(diff.length > 0 && check ? 1 : 0);
