import { describe, expect, it } from "vitest";
import { checkRun } from "../../scripts/lib/chaos/checker";
import type { HistoryEntry } from "../../scripts/lib/chaos/history";
import type { Observation } from "../../scripts/lib/chaos/observe";
import { quietObservation } from "./support/observation";

const id = "pay_0123456789abcdef0123456789abcdef";
const view = { names: { callers: ["c0"], merchants: ["m0"] }, keys: [["k0"]], paymentIds: [id] };
const obs: Observation = quietObservation({
  payments: new Map([[id, { owner: 0, row: { state: "SUCCEEDED" } }]]),
});
const heard = (at_ms: number, op: string, state: string): HistoryEntry => ({
  at_ms,
  process: "client-0",
  type: state === "PROCESSING" ? "info" : "ok",
  op,
  key: "k0",
  payment_id: id,
  state,
});
const regionFail = (at_ms: number): HistoryEntry => ({
  at_ms,
  process: "nemesis",
  type: "fault",
  op: "region_fail",
});
const backwards = (history: HistoryEntry[]) =>
  checkRun(view, history, obs).filter((v) => v.check === "no-state-backwards");

// The shrunk schedule of test/chaos/regressions/processing-after-a-psp-learned-success.json, as its history ran.
describe("no state backwards, across a forced failover", () => {
  it("allows one step back per Region failure, also when it comes after the first answer there", () => {
    // prepare: SUCCEEDED from the old Region; it fails; resolve answers SUCCEEDED from the PSP; a retry hears PROCESSING
    const history = [
      heard(3125, "pay", "SUCCEEDED"),
      regionFail(3659),
      heard(3926, "resolve", "SUCCEEDED"),
      heard(3986, "pay", "PROCESSING"),
    ];
    // act + assess
    expect(backwards(history)).toEqual([]);
  });

  it("still finds a step back with no Region failure before it", () => {
    // prepare
    const history = [heard(3125, "pay", "SUCCEEDED"), heard(3986, "pay", "PROCESSING"), regionFail(4000)];
    // act + assess
    expect(backwards(history)).toHaveLength(1);
  });

  it("finds a second step back after one Region failure", () => {
    // prepare
    const history = [
      heard(100, "pay", "SUCCEEDED"),
      regionFail(200),
      heard(300, "pay", "PROCESSING"),
      heard(400, "resolve", "SUCCEEDED"),
      heard(500, "pay", "PROCESSING"),
    ];
    // act + assess
    expect(backwards(history)).toHaveLength(1);
  });
});
