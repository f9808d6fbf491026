import { describe, expect, it, vi } from "vitest";
import { startReplicator } from "../../packages/local/src/replication/start-replicator";
import {
  freshKey,
  freshTable,
  put,
  remove,
  replicatorBasics,
  sleep,
  streamOf,
  TEST_LAG_MS,
  useTwoRegions,
  valueIn,
  when,
} from "./support/two-regions";

// The local Regions' global tables replicate as DynamoDB global tables (MREC) do: per item, asynchronously, after
// a lag, last writer wins; a replicated write is an ordinary record on the replica's stream.
const two = useTwoRegions();
const ledger = "ledger";

describe("replication lag: a write reaches the other Region only after the lag", () => {
  it("a write in the primary is absent in the standby before the lag and present after it", async () => {
    // prepare: DynamoDB Local's first writes to a table and its replica take a few hundred ms; warm them up. The
    // lag is longer than the file's, so that a loaded machine (2 shared cores) cannot oversleep the half of it.
    const { ddb, replicator } = two();
    await put(ddb.primary, ledger, { ...freshKey("warm-up"), v: { S: "w" } });
    await replicator.awaitIdle();
    const lag = 1_500;
    replicator.setLag(lag);
    const key = freshKey("lag");
    // act
    const before = Date.now();
    await put(ddb.primary, ledger, { ...key, v: { S: "p1" } });
    const written = Date.now();
    await sleep(lag / 2);
    const late = await valueIn(ddb.standby, ledger, key);
    const arrived = await when(async () => (await valueIn(ddb.standby, ledger, key)) === "p1", 5_000);
    // assess
    expect(late).toBe("absent");
    expect(arrived - before).toBeGreaterThanOrEqual(lag);
    // the upper bound leaves room for a loaded machine: reads and applies each take a poll or so
    expect(arrived - written).toBeLessThan(lag + 1000);
  });

  it("with no lag given, a write arrives after the seed's 1,000 ms, not before", async () => {
    // prepare: a replicator of its own, over a table of its own, with the default lag
    const { emu, ddb } = two();
    const table = await freshTable(ddb);
    const replicator = await startReplicator({ ...replicatorBasics(emu), tables: [table] });
    try {
      const key = freshKey("default-lag");
      // act
      const before = Date.now();
      await put(ddb.standby, table, { ...key, v: { S: "s1" } });
      const written = Date.now();
      // half the lag, so that a loaded machine's oversleep cannot reach it
      await sleep(500);
      const halfway = await valueIn(ddb.primary, table, key);
      const arrived = await when(async () => (await valueIn(ddb.primary, table, key)) === "s1");
      // assess
      expect(replicator.status().lag_ms).toBe(1000);
      expect(halfway).toBe("absent");
      expect(arrived - before).toBeGreaterThanOrEqual(1000);
      expect(arrived - written).toBeLessThan(2000);
    } finally {
      await replicator.stop();
    }
  });
});

describe("reading a fresh table's stream", () => {
  it("the first write to a table is read at once, without DynamoDB Local's empty-shard error", async () => {
    // prepare: the claim table has been empty since the emulators started; its shards' iterators are held a while
    const { emu, ddb } = two();
    const claims = emu.regions.primary.claimTable;
    const replicator = await startReplicator({
      ...replicatorBasics(emu),
      tables: [claims],
      lagMs: TEST_LAG_MS,
    });
    const errors = vi.spyOn(console, "error");
    try {
      await sleep(300);
      const key = { id: freshKey("first-write").pk };
      // act
      await put(ddb.primary, claims, { ...key, v: { S: "claimed" } });
      await when(async () => (await valueIn(ddb.standby, claims, key)) === "claimed", 3000);
      // assess
      const trimmed = errors.mock.calls.filter((args) =>
        String(args[0]).includes("TrimmedDataAccessException"),
      );
      expect(trimmed).toEqual([]);
    } finally {
      errors.mockRestore();
      await replicator.stop();
    }
  });
});

describe("last writer wins per item, by write time", () => {
  it("writes of one item in both Regions within the lag converge to the later one in both", async () => {
    // prepare: a longer lag than the file's, so that both writes of an item fall within it even when a loaded
    // machine (2 shared cores, a whole suite beside it) takes far longer than the 100 ms between them
    const { ddb, replicator } = two();
    replicator.setLag(1_500);
    const standbyLast = freshKey("lww-standby-last");
    const primaryLast = freshKey("lww-primary-last");
    // act: each item is written in both Regions 100 ms apart: within the lag, and more than a stream poll apart
    await put(ddb.primary, ledger, { ...standbyLast, v: { S: "primary" } });
    await put(ddb.standby, ledger, { ...primaryLast, v: { S: "standby" } });
    await sleep(100);
    await put(ddb.standby, ledger, { ...standbyLast, v: { S: "standby" } });
    await put(ddb.primary, ledger, { ...primaryLast, v: { S: "primary" } });
    const duringLag = {
      primary: await valueIn(ddb.primary, ledger, standbyLast),
      standby: await valueIn(ddb.standby, ledger, standbyLast),
    };
    await replicator.awaitIdle();
    // assess: during the lag each Region holds its own write (both "succeeded"); then the later write wins in both,
    // and the earlier one is never applied over it (the standby's stream never shows it)
    const images = async (role: "primary" | "standby") =>
      (await streamOf(two().emu, role, ledger, standbyLast)).map((r) => r.dynamodb?.NewImage?.v?.S);
    expect(duringLag).toEqual({ primary: "primary", standby: "standby" });
    expect(await images("standby")).toEqual(["standby"]);
    expect(await images("primary")).toEqual(["primary", "standby"]);
    expect(await valueIn(ddb.primary, ledger, standbyLast)).toBe("standby");
    expect(await valueIn(ddb.standby, ledger, standbyLast)).toBe("standby");
    expect(await valueIn(ddb.primary, ledger, primaryLast)).toBe("primary");
    expect(await valueIn(ddb.standby, ledger, primaryLast)).toBe("primary");
  });
});

describe("deletes replicate as deletes", () => {
  it("a DeleteItem in the primary removes the item from the standby after the lag", async () => {
    // prepare
    const { ddb, replicator } = two();
    const key = freshKey("delete");
    await put(ddb.primary, ledger, { ...key, v: { S: "p1" } });
    await replicator.awaitIdle();
    const replicated = await valueIn(ddb.standby, ledger, key);
    // a lag a loaded machine cannot oversleep the half of
    replicator.setLag(1_500);
    // act
    await remove(ddb.primary, ledger, key);
    await sleep(750);
    const halfway = await valueIn(ddb.standby, ledger, key);
    await replicator.awaitIdle();
    // assess
    expect(replicated).toBe("p1");
    expect(halfway).toBe("p1");
    expect(await valueIn(ddb.standby, ledger, key)).toBe("absent");
    expect((await streamOf(two().emu, "standby", ledger, key)).map((r) => r.eventName)).toEqual([
      "INSERT",
      "REMOVE",
    ]);
  });

  it("a TTL delete in the primary removes the item from the standby, whose table has no TTL", async () => {
    // prepare: only the primary's copy of this table has TTL, so only replication can delete the standby's
    const { emu, ddb } = two();
    const table = await freshTable(ddb, ["primary"]);
    const replicator = await startReplicator({
      ...replicatorBasics(emu),
      tables: [table],
      lagMs: TEST_LAG_MS,
    });
    try {
      const key = freshKey("ttl");
      // at least a second ahead, so that the item reaches the standby first
      const expiresAt = Math.floor(Date.now() / 1000) + 2;
      // act
      await put(ddb.primary, table, { ...key, v: { S: "p1" }, expires_at: { N: String(expiresAt) } });
      await when(async () => (await valueIn(ddb.standby, table, key)) === "p1");
      // DynamoDB Local's TTL sweep has been seen to take from under 1 s to over 10 s
      await when(async () => (await valueIn(ddb.primary, table, key)) === "absent", 25_000, "the TTL delete");
      await when(
        async () => (await valueIn(ddb.standby, table, key)) === "absent",
        2000,
        "the replicated delete",
      );
      await replicator.awaitIdle();
      // assess: DynamoDB Local names its TTL deletes UNKNOWN_TO_SDK_VERSION; the replica's is a plain REMOVE
      const primaryEvents = (await streamOf(emu, "primary", table, key)).map((r) => r.eventName);
      const standbyEvents = (await streamOf(emu, "standby", table, key)).map((r) => r.eventName);
      expect(primaryEvents).toEqual(["INSERT", "UNKNOWN_TO_SDK_VERSION"]);
      expect(standbyEvents).toEqual(["INSERT", "REMOVE"]);
    } finally {
      await replicator.stop();
    }
  });
});

describe("replicated writes on the replica's stream", () => {
  it("each replicated write is an ordinary record on the replica's stream, and is never shipped back", async () => {
    // prepare
    const { emu, ddb, replicator } = two();
    const key = freshKey("stream");
    // act: two writes in the primary, the second before the first has reached the standby
    await put(ddb.primary, ledger, { ...key, v: { S: "p1" } });
    await sleep(50);
    await put(ddb.primary, ledger, { ...key, v: { S: "p2" } });
    await replicator.awaitIdle();
    await sleep(3 * TEST_LAG_MS);
    await replicator.awaitIdle();
    // assess: the standby's stream carries both, in order; the primary's carries its own two and no echo
    const images = async (role: "primary" | "standby") =>
      (await streamOf(emu, role, ledger, key)).map((r) => `${r.eventName} ${r.dynamodb?.NewImage?.v?.S}`);
    expect(await images("standby")).toEqual(["INSERT p1", "MODIFY p2"]);
    expect(await images("primary")).toEqual(["INSERT p1", "MODIFY p2"]);
    expect(await valueIn(ddb.primary, ledger, key)).toBe("p2");
    expect(await valueIn(ddb.standby, ledger, key)).toBe("p2");
  });
});

describe("pause and resume", () => {
  it("paused, nothing is delivered and the changes wait; resumed, they arrive in order per item", async () => {
    // prepare
    const { emu, ddb, replicator } = two();
    const a = freshKey("pause-a");
    const b = freshKey("pause-b");
    replicator.pause();
    // act
    await put(ddb.primary, ledger, { ...a, v: { S: "a1" } });
    await put(ddb.primary, ledger, { ...b, v: { S: "b1" } });
    await put(ddb.primary, ledger, { ...a, v: { S: "a2" } });
    await sleep(3 * TEST_LAG_MS);
    const whilePaused = {
      a: await valueIn(ddb.standby, ledger, a),
      b: await valueIn(ddb.standby, ledger, b),
      status: replicator.status(),
    };
    replicator.resume();
    await replicator.awaitIdle();
    // assess
    expect(whilePaused).toMatchObject({ a: "absent", b: "absent" });
    expect(whilePaused.status).toMatchObject({
      paused: true,
      pending: 3,
      regions: { primary: { unshipped: 3 } },
    });
    expect(replicator.status()).toMatchObject({ paused: false, pending: 0 });
    expect(await valueIn(ddb.standby, ledger, a)).toBe("a2");
    expect(await valueIn(ddb.standby, ledger, b)).toBe("b1");
    const aOnStandby = (await streamOf(emu, "standby", ledger, a)).map((r) => r.dynamodb?.NewImage?.v?.S);
    expect(aOnStandby).toEqual(["a1", "a2"]);
  });
});
