/**
 * Every alarm and every runbook entry point at each other, and the runbook's alarm table is the deployed list: read
 * from docs/runbook.md and stacks/on-call-signals.ts, the same checks `npm run on-call-table -- --check` makes.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { alarmTable, tableCells, tableInReadme } from "../../scripts/lib/on-call/alarm-table";
import { alarmEntries, runbookProblems } from "../../scripts/lib/on-call/runbook-links";
import { ON_CALL_SIGNALS } from "../../stacks/on-call-signals";

const readme = readFileSync(resolve(import.meta.dirname, "../../docs/runbook.md"), "utf8");

describe("the runbook's alarm table", () => {
  it("is the list the alarms are built from, row for row", () => {
    // act
    const current = tableInReadme(readme);
    // assess
    expect(current, "docs/runbook.md lacks the alarm table's markers").toBeDefined();
    expect(tableCells(current ?? "")).toEqual(tableCells(alarmTable(ON_CALL_SIGNALS)));
  });

  it("goes out of date when a threshold changes (break on purpose)", () => {
    // prepare
    const changed = ON_CALL_SIGNALS.map((s) => (s.id === "Api5xxRate" ? { ...s, threshold: 0.5 } : s));
    // act
    const cells = tableCells(alarmTable(changed));
    // assess
    expect(cells).not.toEqual(tableCells(tableInReadme(readme) ?? ""));
  });
});

describe("alarms and runbook entries", () => {
  it("point at each other: each alarm's entry exists and names it, and each entry is some alarm's", () => {
    // act
    const problems = runbookProblems(readme, ON_CALL_SIGNALS);
    const titles = alarmEntries(readme).map((e) => e.title);
    // assess
    expect(problems).toEqual([]);
    expect(new Set(titles)).toEqual(new Set(ON_CALL_SIGNALS.map((s) => s.runbook)));
  });

  it("finds an alarm whose entry is gone, an entry that does not name its alarm, and an entry of no alarm", () => {
    // prepare: three ways to break the links
    const renamed = ON_CALL_SIGNALS.map((s) =>
      s.id === "PaymentAnomalies" ? { ...s, runbook: "Money taken twice" } : s,
    );
    const unnamed = readme.replace("`…PspThrottledAlarm`", "the 429 alarm");
    const orphan = readme.replace(
      "- **Buyers get 5xx answers**",
      "- **Nobody is paged for this** (nothing).\n- **Buyers get 5xx answers**",
    );
    // act
    const found = [
      runbookProblems(readme, renamed),
      runbookProblems(unnamed, ON_CALL_SIGNALS),
      runbookProblems(orphan, ON_CALL_SIGNALS),
    ];
    // assess
    expect(found[0]).toContain(
      'PaymentAnomalies: no runbook entry **Money taken twice** under "### When an alarm pages"',
    );
    expect(found[0]).toContain("the entry **Anomalies** is the runbook of no alarm");
    expect(found[1]).toEqual([
      "PspThrottled: the entry **The PSP budget spent** does not name its alarm (…PspThrottledAlarm)",
    ]);
    expect(found[2]).toEqual(["the entry **Nobody is paged for this** is the runbook of no alarm"]);
  });
});
