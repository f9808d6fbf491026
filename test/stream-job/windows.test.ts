import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import { describe, expect, it } from "vitest";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { totalsTrace } from "./support/totals";

// Short windows, so that a window closes within the test (the stacks deploy 60 s).
process.env.STREAM_JOB_WINDOW_S = "2";
const stack = useLocalStack({ standby: false });

/** The sink items the sparse tag index lists for a merchant: only keys of windows still open. */
async function indexed(merchant: string) {
  const db = tablesOf(stack()).db;
  const out = await db.send(
    new ScanCommand({ TableName: stack().emulators.regions.primary.totalsTable, IndexName: "tags" }),
  );
  return (out.Items ?? []).filter((i) => i.merchant === merchant);
}

describe("the stream job across tumbling windows", () => {
  it("carries its seen ids into the next window: a copy of ev_a re-read there is a duplicate, not a second count", async () => {
    // prepare: ev_a in one window, which then closes
    const t = totalsTrace(stack(), "carry");
    await t.pay("m1", 1_000);
    await t.until("m1", 1_000);
    await new Promise((r) => setTimeout(r, 4_500));
    const listedAfterClose = (await indexed(t.merchant("m1"))).length;
    // act: the source re-reads from an older position in a later window
    await t.api.local("POST", "/faults", { stream_job_redeliver: 100, n: 1 });
    await t.pay("m1", 500);
    // assess
    expect(await t.until("m1", 1_500)).toBe(1_500);
    expect(listedAfterClose).toBe(0);
    expect((await t.totals("m1")).length).toBeGreaterThanOrEqual(1);
    // (while a window is open its keys are listed: the full flush finds them, test/stream-job/daily-totals.test.ts)
  }, 60_000);
});
