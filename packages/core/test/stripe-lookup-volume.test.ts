import { afterEach, describe, expect, it } from "vitest";
import { armFault, clearFaults } from "../src/faults/faults";
import { replayCharge } from "../src/payment/replay-charge";
import { HOUR_MS, type LookupRig, pagesOf, RIG_KEY, startLookupRig, unknownRow } from "./support/lookup-rig";
import { chargeOf } from "./support/stripe-fake";

let rig: LookupRig | undefined;
afterEach(async () => {
  clearFaults();
  delete process.env.EO_TEST_UNSAFE_WIDE_LOOKUP_WINDOW;
  delete process.env.EO_TEST_UNSAFE_ONE_SLOT_PER_LOOKUP;
  await rig?.psp.stop();
  rig = undefined;
});

// Rates out of the way: these two are about the window, not the caps.
const LIVE_RATES = { accountPerS: 1_000, endpointPerS: 1_000, resolverPerS: 1_000 };
const NO_CAPS = { rateLimits: { perAccount: 10_000, perEndpoint: 10_000 } };
const PASS_MS = 5_000;

// An account that takes 50,000 payments a day; ours was charged at t0, its reply lost, and the resolver comes back
// after the key window (a day less an hour), while search answers nothing (its index behind, or down).
async function lostReplyInABusyAccount(r: LookupRig) {
  const t0 = r.clock.now();
  r.psp.seedIntents({ account: RIG_KEY, count: 50_000, fromMs: t0 - HOUR_MS, toMs: t0 + 23 * HOUR_MS });
  armFault("psp_lose_reply", 1, 1);
  const lost = await r.deps.psp.charge("pay_busy:charge", chargeOf("pay_busy"), 5_000);
  r.clock.advance(23 * HOUR_MS + 2 * 60_000);
  armFault("psp_search_lag", 1, 10);
  return { lost, row: unknownRow("pay_busy", t0, [t0]) };
}

describe("lost PSP reply in an account of 50,000 intents a day (issue 39): the list only around our sends", () => {
  it("the first resolver pass settles it with one list page", async () => {
    // prepare
    rig = await startLookupRig(NO_CAPS, LIVE_RATES);
    const { lost, row } = await lostReplyInABusyAccount(rig);
    // act
    const found = await replayCharge(rig.deps, row, rig.clock.now() + PASS_MS, { origin: "resolver" });
    // assess
    expect(lost.kind).toBe("unknown");
    expect(found).toEqual({
      kind: "done",
      id: rig.psp.charges().find((c) => c.reference === "pay_busy")?.id,
    });
    expect(pagesOf(rig.psp).pages).toBe(1);
  });

  it("guard off (EO_TEST_UNSAFE_WIDE_LOOKUP_WINDOW=1): the day-long window reads page after page and settles nothing", async () => {
    // prepare
    rig = await startLookupRig(NO_CAPS, LIVE_RATES);
    const { row } = await lostReplyInABusyAccount(rig);
    process.env.EO_TEST_UNSAFE_WIDE_LOOKUP_WINDOW = "1";
    // act
    const found = await replayCharge(rig.deps, row, rig.clock.now() + PASS_MS, { origin: "resolver" });
    // assess
    expect(found.kind).toBe("unknown");
    // How many pages fit in the pass depends on the machine (about 90 alone, 45 under load); ten is already ten
    // times the guarded lookup, and none of them found the charge.
    expect(pagesOf(rig.psp).pages).toBeGreaterThan(10);
  });
});

// The sandbox's caps at the fake (25/s per endpoint, search 20/s) and a budget whose reads' share is 20/s: a row
// without recorded sends (older than issue 39) lists its fallback window, 3,000 intents in 30 pages.
const SANDBOX = { rateLimits: { perAccount: 100, perEndpoint: 25 }, searchRatePerS: 20 };
const READS_AT_20 = { accountPerS: 80, endpointPerS: 20, resolverPerS: 20 };
// The same shape at a lower cap (12/s, reads' share 10/s), for the pair that compares the guard with its absence:
// unguarded pages outrun 12/s even on a loaded 2-core machine (the sandbox's 25/s they did not always outrun).
const SANDBOX_AT_12 = { rateLimits: { perAccount: 100, perEndpoint: 12 }, searchRatePerS: 20 };
const READS_AT_10 = { accountPerS: 80, endpointPerS: 10, resolverPerS: 10 };

async function oldRowWithManyPages(r: LookupRig) {
  const t0 = r.clock.now();
  r.psp.seedIntents({ account: RIG_KEY, count: 3_000, fromMs: t0, toMs: t0 + 23 * HOUR_MS });
  r.clock.advance(23 * HOUR_MS + 2 * 60_000);
  return unknownRow("pay_old", t0);
}

describe("a resolver lookup of many pages at the sandbox's cap (issue 39): one budget slot per request", () => {
  it("each page waits for its own slot: no 429 at the PSP, and the lookup finishes", async () => {
    // prepare
    rig = await startLookupRig(SANDBOX_AT_12, READS_AT_10);
    const row = await oldRowWithManyPages(rig);
    // act
    const found = await replayCharge(rig.deps, row, rig.clock.now() + PASS_MS, { origin: "resolver" });
    // assess
    expect(found).toEqual({ kind: "not-found" });
    expect(pagesOf(rig.psp).pages).toBeGreaterThanOrEqual(30);
    expect(rig.psp.stats().rate_limited).toBe(0);
  });

  it("guard off (EO_TEST_UNSAFE_ONE_SLOT_PER_LOOKUP=1): the pages go faster than the cap and the PSP answers 429", async () => {
    // prepare
    rig = await startLookupRig(SANDBOX_AT_12, READS_AT_10);
    const row = await oldRowWithManyPages(rig);
    process.env.EO_TEST_UNSAFE_ONE_SLOT_PER_LOOKUP = "1";
    // act
    const found = await replayCharge(rig.deps, row, rig.clock.now() + PASS_MS, { origin: "resolver" });
    // assess
    expect(rig.psp.stats().rate_limited).toBeGreaterThan(0);
    expect(found).toMatchObject({ kind: "rate-limited", by: "psp" });
  });

  it("a lookup that cannot finish in its pass goes on from its cursor in the next, never from the start", async () => {
    // prepare
    rig = await startLookupRig(SANDBOX, READS_AT_20);
    const row = await oldRowWithManyPages(rig);
    // act: passes of 1.6 s each (about 12 pages once the last second is kept for a call), the row carrying the cursor the last one kept
    const replies = [];
    for (let pass = 0; pass < 10 && replies.at(-1)?.kind !== "not-found"; pass++) {
      replies.push(await replayCharge(rig.deps, row, rig.clock.now() + 1_600, { origin: "resolver" }));
      row.lookup_cursor = rig.calls.cursors.at(-1);
    }
    // assess
    expect(replies[0]?.kind).toBe("unknown");
    expect(replies.at(-1)).toEqual({ kind: "not-found" });
    expect(rig.calls.cursors[0]?.after).toMatch(/^pi_/);
    expect(rig.calls.cursors.at(-1)).toBeUndefined();
    // 30 pages of intents, each read once (a page more per pass where a cursor's page ends)
    expect(pagesOf(rig.psp).pages).toBeLessThanOrEqual(30 + replies.length);
  });
});
