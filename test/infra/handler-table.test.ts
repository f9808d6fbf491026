/**
 * The deploy page's handler table is the list the stacks deploy: read from docs/deploying.md and
 * stacks/handlers.ts, the same check `npm run handler-table -- --check` makes (run here once as a script too).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { handlerTable, tableCells, tableDiff, tableInDoc } from "../../scripts/lib/handler-table";
import { handlers } from "../../stacks/handlers";

const ROOT = resolve(import.meta.dirname, "../..");
const doc = readFileSync(resolve(ROOT, "docs/deploying.md"), "utf8");

describe("the deploy page's handler table", () => {
  it("is the manifest, row for row", () => {
    // act
    const current = tableInDoc(doc);
    // assess
    expect(current, "docs/deploying.md lacks the handler table's markers").toBeDefined();
    expect(tableCells(current ?? "")).toEqual(tableCells(handlerTable(handlers)));
    expect(tableCells(current ?? "")).toHaveLength(handlers.length + 1);
  });

  it("reports a page whose table has one row changed (break on purpose), naming both versions of the row", () => {
    // prepare: the page as it would be with the resolver's memory edited by hand
    const current = tableInDoc(doc) ?? "";
    const row = current.split("\n").find((l) => l.startsWith("| `Resolver`")) ?? "";
    const edited = current.replace(row, row.replace("512 MB", "128 MB"));
    // act
    const diff = tableDiff(edited, handlerTable(handlers));
    // assess
    expect(row).not.toBe("");
    expect(diff).toHaveLength(2);
    expect(diff[0]).toMatch(/^- \| `Resolver` \|.*\| 128 MB \|/);
    expect(diff[1]).toMatch(/^\+ \| `Resolver` \|.*\| 512 MB \|/);
  });

  it("reports a spec that changed while the page did not (break on purpose)", () => {
    // prepare: a handler's timeout changed in the manifest only
    const changed = handlers.map((h) => (h.id === "Sweeps" ? { ...h, timeoutSeconds: 90 } : h));
    // act
    const diff = tableDiff(tableInDoc(doc) ?? "", handlerTable(changed));
    // assess
    expect(diff).toEqual([
      expect.stringMatching(/^- \| `Sweeps` \| .*120 s/),
      expect.stringMatching(/^\+ .*90 s/),
    ]);
  });

  it("npm run handler-table -- --check passes on the page as committed", async () => {
    // act
    const { stdout } = await promisify(execFile)("npx", ["tsx", "scripts/handler-table.ts", "--check"], {
      cwd: ROOT,
      timeout: 60_000,
    });
    // assess
    expect(stdout).toContain("handler table: current");
  });
});
