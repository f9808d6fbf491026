import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { describe, expect, it } from "vitest";
import {
  freshKey,
  get,
  put,
  putTogether,
  setAttribute,
  sleep,
  streamOf,
  TEST_LAG_MS,
  useTwoRegions,
  valueIn,
  when,
} from "./support/two-regions";

// A transaction is atomic only in the Region where it runs; a failed Region's last writes wait in it (Part 9).
const two = useTwoRegions();
const ledger = "ledger";
type Key = ReturnType<typeof freshKey>;
const delayOnly = (late: Key, ms: number) => (c: { keys: Record<string, unknown> }) =>
  (c.keys.pk as AttributeValue.SMember).S === late.pk.S ? ms : 0;

describe("a transaction's items are shipped independently", () => {
  it("with jitter, the standby holds one item of a TransactWriteItems before the other", async () => {
    // prepare: the second item's change is delivered 400 ms after the first's
    const { ddb, jitter } = two();
    const a = freshKey("tx-a");
    const b = freshKey("tx-b");
    jitter.fn = delayOnly(b, 400);
    // act
    await putTogether(ddb.primary, ledger, [
      { ...a, v: { S: "a" } },
      { ...b, v: { S: "b" } },
    ]);
    const seen = new Set<string>();
    await when(async () => {
      const state = `${await valueIn(ddb.standby, ledger, a)}/${await valueIn(ddb.standby, ledger, b)}`;
      seen.add(state);
      return state === "a/b";
    }, 3000);
    // assess: the standby went from neither, to a alone, to both
    expect([...seen]).toEqual(["absent/absent", "a/absent", "a/b"]);
  });

  it("failing the primary between the two items leaves the standby with one until the primary recovers", async () => {
    // prepare
    const { ddb, jitter, replicator } = two();
    const a = freshKey("tx-fail-a");
    const b = freshKey("tx-fail-b");
    jitter.fn = delayOnly(b, 500);
    await putTogether(ddb.primary, ledger, [
      { ...a, v: { S: "a" } },
      { ...b, v: { S: "b" } },
    ]);
    await when(async () => (await valueIn(ddb.standby, ledger, a)) === "a", 3000);
    // act: the primary fails after a arrived and before b's delivery time
    replicator.failRegion("primary");
    await sleep(500 + 2 * TEST_LAG_MS);
    const whileFailed = {
      a: await valueIn(ddb.standby, ledger, a),
      b: await valueIn(ddb.standby, ledger, b),
    };
    const status = replicator.status();
    replicator.recoverRegion("primary");
    await replicator.awaitIdle();
    // assess
    expect(whileFailed).toEqual({ a: "a", b: "absent" });
    expect(status.regions).toEqual({
      primary: { up: false, unshipped: 1 },
      standby: { up: true, unshipped: 0 },
    });
    expect(await valueIn(ddb.standby, ledger, b)).toBe("b");
  });
});

describe("a failed Region ships nothing and receives nothing until it recovers", () => {
  it("its unshipped writes stay unshipped, then catch up and lose to later writes made meanwhile", async () => {
    // prepare: x is written in the primary just before it fails; y only there
    const { ddb, replicator } = two();
    const x = freshKey("failed-x");
    const y = freshKey("failed-y");
    await put(ddb.primary, ledger, { ...x, v: { S: "primary-before-failure" } });
    await put(ddb.primary, ledger, { ...y, v: { S: "primary-only" } });
    replicator.failRegion("primary");
    // act: the standby writes x while the primary is down (later by more than a poll: the write times are read times)
    await sleep(100);
    await put(ddb.standby, ledger, { ...x, v: { S: "standby-during-failure" } });
    await sleep(3 * TEST_LAG_MS);
    const whileFailed = {
      standby: [await valueIn(ddb.standby, ledger, x), await valueIn(ddb.standby, ledger, y)],
      primary: await valueIn(ddb.primary, ledger, x),
      status: replicator.status(),
    };
    replicator.recoverRegion("primary");
    await replicator.awaitIdle();
    // assess: nothing crossed while it was down; after recovery, the later write of x wins in both Regions
    expect(whileFailed.standby).toEqual(["standby-during-failure", "absent"]);
    expect(whileFailed.primary).toBe("primary-before-failure");
    expect(whileFailed.status).toMatchObject({
      pending: 3,
      regions: { primary: { up: false, unshipped: 2 }, standby: { up: true, unshipped: 1 } },
    });
    const standbyImages = (await streamOf(two().emu, "standby", ledger, x)).map(
      (r) => r.dynamodb?.NewImage?.v?.S,
    );
    expect(standbyImages).toEqual(["standby-during-failure"]);
    expect(await valueIn(ddb.primary, ledger, x)).toBe("standby-during-failure");
    expect(await valueIn(ddb.standby, ledger, x)).toBe("standby-during-failure");
    expect(await valueIn(ddb.standby, ledger, y)).toBe("primary-only");
  });
});

describe("a write in the replica that its stream has not shown yet is never lost to an older change", () => {
  it("a write landing between the check and the apply refuses the apply; the later write wins in both", async () => {
    // prepare: x exists in both; the test seam writes x in the standby just before the primary's change applies
    const { emu, ddb, replicator, beforeApply } = two();
    const x = freshKey("race-put");
    await put(ddb.primary, ledger, { ...x, v: { S: "v0" } });
    await replicator.awaitIdle();
    let raced = false;
    beforeApply.fn = async (c) => {
      if (raced || c.to !== "standby" || !c.key.includes(x.pk.S as string)) return;
      raced = true;
      await put(ddb.standby, ledger, { ...x, v: { S: "standby-in-the-window" } });
    };
    // act
    await put(ddb.primary, ledger, { ...x, v: { S: "primary" } });
    await replicator.awaitIdle();
    // assess: the standby never held the primary's older write
    const standbyImages = (await streamOf(emu, "standby", ledger, x)).map((r) => r.dynamodb?.NewImage?.v?.S);
    expect(raced).toBe(true);
    expect(standbyImages).toEqual(["v0", "standby-in-the-window"]);
    expect(await valueIn(ddb.primary, ledger, x)).toBe("standby-in-the-window");
    expect(await valueIn(ddb.standby, ledger, x)).toBe("standby-in-the-window");
  });

  it("an update that only adds an attribute in that window is overwritten, then restored by a repair", async () => {
    // prepare: the condition compares the attributes the replicator knows; an added one escapes it
    const { emu, ddb, replicator, beforeApply } = two();
    const x = freshKey("race-update");
    await put(ddb.primary, ledger, { ...x, v: { S: "v0" } });
    await replicator.awaitIdle();
    let raced = false;
    beforeApply.fn = async (c) => {
      if (raced || c.to !== "standby" || !c.key.includes(x.pk.S as string)) return;
      raced = true;
      await setAttribute(ddb.standby, ledger, x, "extra", { S: "added-in-the-window" });
    };
    // act
    await put(ddb.primary, ledger, { ...x, v: { S: "primary" } });
    await replicator.awaitIdle();
    // assess: the later write (the update) is the item in both Regions
    const standby = (await streamOf(emu, "standby", ledger, x)).map(
      (r) => `${r.dynamodb?.NewImage?.v?.S}+${r.dynamodb?.NewImage?.extra?.S ?? "-"}`,
    );
    expect(raced).toBe(true);
    expect(standby).toEqual(["v0+-", "v0+added-in-the-window", "primary+-", "v0+added-in-the-window"]);
    for (const ddbOf of [ddb.primary, ddb.standby]) {
      const item = await get(ddbOf, ledger, x);
      expect(item).toMatchObject({ v: { S: "v0" }, extra: { S: "added-in-the-window" } });
    }
  });
});
