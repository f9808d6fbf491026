import { describe, expect, it } from "vitest";
import { checkRun } from "../../scripts/lib/chaos/checker";
import type { HistoryEntry } from "../../scripts/lib/chaos/history";
import type { Observation } from "../../scripts/lib/chaos/observe";
import { quietObservation } from "./support/observation";

const id = "pay_0123456789abcdef0123456789abcdef";
const view = { names: { callers: ["c0"], merchants: ["m0"] }, keys: [["k0"]], paymentIds: [id] };
const obs: Observation = quietObservation({
  charges: [{ id: "ch_1", reference: id } as Observation["charges"][number]],
  payments: new Map([[id, { owner: 0, row: { state: "SUCCEEDED" } }]]),
});
const resolvedVoid = (at_ms: number): HistoryEntry => ({
  at_ms,
  process: "client-0",
  type: "ok",
  op: "resolve",
  key: "k0",
  state: "VOID",
});
const paid = (at_ms: number): HistoryEntry => ({
  at_ms,
  process: "client-0",
  type: "ok",
  op: "pay",
  key: "k0",
  payment_id: id,
  status: 201,
  state: "SUCCEEDED",
});
const nemesis = (at_ms: number, op: string): HistoryEntry => ({
  at_ms,
  process: "nemesis",
  type: "fault",
  op,
});
const voidContradicted = (history: HistoryEntry[]) =>
  checkRun(view, history, obs).filter(
    (v) => v.check === "answers-agree" && v.reason.includes("resolved VOID"),
  );

// The shape of `npm run sim -- --seed 880400 --regions mixed --nemesis mixed --replay-index 12407`: resolve voids k0
// in the primary, replication stalls, the primary fails 2.3 s later with the tombstone unshipped, the standby charges.
describe("a VOID lost with its Region's unshipped writes", () => {
  it("is allowed when replication was stalled from the VOID until the Region failed", () => {
    // prepare
    const history = [
      resolvedVoid(1250),
      nemesis(1250, "replication_stall"),
      nemesis(3550, "region_fail"),
      paid(6400),
    ];
    // act + assess
    expect(voidContradicted(history)).toEqual([]);
  });

  it("is allowed within the usual lag, with no stall", () => {
    // prepare
    const history = [resolvedVoid(1250), nemesis(2900, "region_fail"), paid(6400)];
    // act + assess
    expect(voidContradicted(history)).toEqual([]);
  });

  it("is a violation when the Region failed past the lag with replication running", () => {
    // prepare
    const history = [resolvedVoid(1250), nemesis(3550, "region_fail"), paid(6400)];
    // act + assess
    expect(voidContradicted(history)).toHaveLength(1);
  });

  it("is a violation when the stall was over before the Region failed (the tombstone shipped)", () => {
    // prepare
    const history = [
      resolvedVoid(1250),
      nemesis(1250, "replication_stall"),
      nemesis(2000, "replication_resume"),
      nemesis(3550, "region_fail"),
      paid(6400),
    ];
    // act + assess
    expect(voidContradicted(history)).toHaveLength(1);
  });

  it("is a violation when the stall began after the VOID had shipped", () => {
    // prepare
    const history = [
      resolvedVoid(1250),
      nemesis(5000, "replication_stall"),
      nemesis(6000, "region_fail"),
      paid(6400),
    ];
    // act + assess
    expect(voidContradicted(history)).toHaveLength(1);
  });
});
