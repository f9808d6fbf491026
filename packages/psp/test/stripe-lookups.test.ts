import { manualClock } from "@eo/core";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { intentParams, SECRET_KEY, type StripeRig, startRig, stripeFor, thrown } from "./stripe-harness";

let rig: StripeRig | undefined;

afterEach(async () => {
  await rig?.psp.stop();
  rig = undefined;
});

const unix = (ms: number) => Math.floor(ms / 1000);
const byReference = (paymentId: string) => `metadata['payment_id']:'${paymentId}'`;

describe("a lost reply", () => {
  it("is a StripeConnectionError to the SDK, yet the intent exists: the list finds it while search lags", async () => {
    // prepare
    rig = await startRig();
    const { psp, stripe, faults } = rig;
    faults.arm("psp_lose_reply", 1);
    faults.arm("psp_search_lag", 1, 5);
    const before = unix(Date.now());
    // act
    const err = await thrown(
      stripe.paymentIntents.create(intentParams("pay_lost"), { idempotencyKey: "k1" }),
    );
    const searched = await stripe.paymentIntents.search({ query: byReference("pay_lost") });
    const listed = await stripe.paymentIntents
      .list({ created: { gte: before - 60, lte: unix(Date.now()) + 60 }, limit: 100 })
      .autoPagingToArray({ limit: 1000 });
    const replay = await stripe.paymentIntents.create(intentParams("pay_lost"), { idempotencyKey: "k1" });
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(psp.stats().replies_dropped).toBe(1);
    // One POST for the lost reply (the SDK did not retry the cut reply on its own) and one for the replay.
    expect(psp.requestLog().filter((line) => line === "POST /v1/payment_intents")).toHaveLength(2);
    expect(searched.data).toEqual([]);
    const found = listed.filter((pi) => pi.metadata.payment_id === "pay_lost");
    expect(found.map((pi) => pi.status)).toEqual(["succeeded"]);
    expect(found[0]?.id).toBe(psp.charges()[0]?.id);
    expect(replay.id).toBe(found[0]?.id);
    expect(replay.lastResponse.headers["idempotent-replayed"]).toBe("true");
  });

  it("is also what a psp_delay_ms longer than the SDK's timeout looks like: the intent appears after the delay", async () => {
    // prepare
    rig = await startRig();
    const { psp, faults } = rig;
    faults.arm("psp_delay_ms", 400);
    const impatient = stripeFor(psp, { timeout: 100 });
    // act
    const err = await thrown(
      impatient.paymentIntents.create(intentParams("pay_slow"), { idempotencyKey: "k1" }),
    );
    const chargedWhenGivenUp = psp.charges().length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(err.message).toContain("timeout");
    expect(chargedWhenGivenUp).toBe(0);
    expect(psp.charges()).toHaveLength(1);
  });
});

describe("search is eventually consistent", () => {
  it("finds an intent only searchLagMs after it was made, by the PSP's clock; the list at once", async () => {
    // prepare
    const clock = manualClock(Date.UTC(2026, 0, 1));
    rig = await startRig({ clock, searchLagMs: 60_000 });
    const { stripe } = rig;
    const made = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    // act
    const early = await stripe.paymentIntents.search({ query: byReference("pay_1") });
    const listed = await stripe.paymentIntents.list({ created: { gte: unix(clock.now()) } });
    clock.advance(60_000);
    const later = await stripe.paymentIntents.search({ query: byReference("pay_1") });
    // assess
    expect(early).toMatchObject({ object: "search_result", data: [], has_more: false });
    expect(listed.data.map((pi) => pi.id)).toEqual([made.id]);
    expect(later.data.map((pi) => pi.id)).toEqual([made.id]);
  });

  it("answers empty for the next n searches under psp_search_lag, and never empties a list", async () => {
    // prepare
    rig = await startRig();
    const { stripe, faults } = rig;
    const made = await stripe.paymentIntents.create(intentParams("pay_1"), { idempotencyKey: "k1" });
    faults.arm("psp_search_lag", 1, 2);
    // act
    const list = await stripe.paymentIntents.list();
    const first = await stripe.paymentIntents.search({ query: byReference("pay_1") });
    const second = await stripe.paymentIntents.search({ query: byReference("pay_1") });
    const third = await stripe.paymentIntents.search({ query: byReference("pay_1") });
    // assess
    expect(list.data.map((pi) => pi.id)).toEqual([made.id]);
    expect([first.data.length, second.data.length]).toEqual([0, 0]);
    expect(third.data.map((pi) => pi.id)).toEqual([made.id]);
  });

  it("pages search results by next_page", async () => {
    // prepare
    rig = await startRig();
    const { stripe } = rig;
    for (let i = 0; i < 5; i++) {
      await stripe.paymentIntents.create(intentParams("pay_same"), { idempotencyKey: `k${i}` });
    }
    // act
    const first = await stripe.paymentIntents.search({ query: byReference("pay_same"), limit: 2 });
    const all = await stripe.paymentIntents
      .search({ query: byReference("pay_same"), limit: 2 })
      .autoPagingToArray({ limit: 100 });
    // assess
    expect(first.has_more).toBe(true);
    expect(first.next_page).toEqual(expect.any(String));
    expect(new Set(all.map((pi) => pi.id)).size).toBe(5);
  });
});

describe("listing PaymentIntents", () => {
  it("pages newest first across pages, by starting_after and by autoPagingToArray", async () => {
    // prepare
    rig = await startRig();
    const { stripe } = rig;
    const made: string[] = [];
    for (let i = 0; i < 12; i++) {
      made.push(
        (await stripe.paymentIntents.create(intentParams(`pay_${i}`), { idempotencyKey: `k${i}` })).id,
      );
    }
    // act
    const page1 = await stripe.paymentIntents.list({ limit: 5 });
    const page2 = await stripe.paymentIntents.list({ limit: 5, starting_after: page1.data.at(-1)?.id });
    const all = await stripe.paymentIntents.list({ limit: 5 }).autoPagingToArray({ limit: 100 });
    // assess
    expect(page1).toMatchObject({ object: "list", has_more: true, url: "/v1/payment_intents" });
    expect(page1.data.map((pi) => pi.id)).toEqual(made.slice(7).reverse());
    expect(page2.data.map((pi) => pi.id)).toEqual(made.slice(2, 7).reverse());
    expect(all.map((pi) => pi.id)).toEqual([...made].reverse());
  });

  it("filters by the created window (gte, lte, gt, lt)", async () => {
    // prepare
    const clock = manualClock(Date.UTC(2026, 0, 1));
    rig = await startRig({ clock });
    const { stripe } = rig;
    const t0 = unix(clock.now());
    const early = await stripe.paymentIntents.create(intentParams("pay_a"), { idempotencyKey: "ka" });
    clock.advance(10_000);
    const late = await stripe.paymentIntents.create(intentParams("pay_b"), { idempotencyKey: "kb" });
    // act
    const ids = async (created: Stripe.RangeQueryParam) =>
      (await stripe.paymentIntents.list({ created })).data.map((pi) => pi.id);
    const results = [
      await ids({ gte: t0 + 5 }),
      await ids({ lte: t0 + 5 }),
      await ids({ gt: t0 }),
      await ids({ lt: t0 + 10 }),
      await ids({ gte: t0, lte: t0 + 10 }),
    ];
    // assess
    expect(results).toEqual([[late.id], [early.id], [late.id], [early.id], [late.id, early.id]]);
  });

  it("refuses a cursor it does not know", async () => {
    // prepare
    rig = await startRig();
    // act
    const err = await thrown(rig.stripe.paymentIntents.list({ starting_after: "pi_unknown" }));
    // assess
    expect(err).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(err.param).toBe("starting_after");
  });
});

describe("lists and search at volume (issue 39)", () => {
  it("a seeded account of 10,000 intents a day lists a ten-minute window newest first in one page", async () => {
    // prepare
    rig = await startRig();
    const t0 = Date.now();
    rig.psp.seedIntents({ account: SECRET_KEY, count: 10_000, fromMs: t0 - 86_400_000, toMs: t0 });
    // act
    const page = await rig.stripe.paymentIntents.list({
      created: { gte: unix(t0 - 600_000), lte: unix(t0) },
      limit: 100,
    });
    // assess
    const created = page.data.map((pi) => pi.created);
    expect(page.has_more).toBe(false);
    expect(page.data.length).toBeGreaterThan(60);
    expect(rig.psp.requests()).toBe(1);
    expect(created).toEqual([...created].sort((a, b) => b - a));
  });

  it("search has its own limit, 20 requests/s: over it, Stripe's 429 rate_limit, and the SDK names it", async () => {
    // prepare
    rig = await startRig({ rateLimits: { perAccount: 1_000, perEndpoint: 1_000 } });
    const { stripe } = rig;
    // act
    const answers = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        stripe.paymentIntents.search({ query: byReference(`p${i}`) }).then(
          () => undefined,
          (err: unknown) => err,
        ),
      ),
    );
    // assess
    const refused = answers.filter((e) => e instanceof Stripe.errors.StripeRateLimitError);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect((refused[0] as Stripe.errors.StripeError | undefined)?.code).toBe("rate_limit");
  });
});
