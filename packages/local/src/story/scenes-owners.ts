import { until } from "../drills/drill-api";
import { chargesOf, clockOn, orderOf, type SceneStage, type StoryScene } from "./story-scenes";

// The story stack's deadline (the lease of a claim) and the takeover margin, as the handlers are configured.
const LEASE_S = 5;
const MARGIN_S = 1;

/** 3a: the owner dies right after its claim; one clock plus a 1 s margin decides when its lease is over. */
export const crashedAfterClaim: StoryScene = {
  description: "a crashed owner's claim, judged by one clock plus a 1 s margin (Part 3)",
  env: { EO_TEST_UNSAFE_NO_TAKEOVER_MARGIN: "1" },
  outcome: "a retry inside the margin hears 409; the one after it takes over; one charge",
  failure: "the claim taken over inside the margin, where an owner whose clock is behind may still run",
  async play(s: SceneStage) {
    const { api, t } = s;
    const token = await api.token(`buyer-3a-${s.tag}`);
    const key = `K1-3a-${s.tag}`;
    await api.local("R1", "POST", "/faults", { crash_at: "pay.after_claim" });
    const sentAt = Date.now();
    const first = await api.pay("R1", token, key, orderOf(s, "3a"));
    t.mark("R1", "handler", `A1 claimed K1 and died before its row (the phone heard ${first.status})`);
    // The lease counts from A1's arrival, and real time has passed since: land 0.4 s after the lease ends.
    await clockOn(s, LEASE_S + 0.4 - (Date.now() - sentAt) / 1000);
    const inside = await api.pay("R1", token, key, orderOf(s, "3a"));
    t.mark("R1", "phone", `retry 0.4 s after the lease, inside the margin: ${inside.status}`);
    await clockOn(s, MARGIN_S);
    const after = await api.pay("R1", token, key, orderOf(s, "3a"));
    const charges = chargesOf(s.stack, s.amount);
    t.mark("R1", "phone", `retry after lease + margin: ${after.status} ${String(after.body.state ?? "")}`);
    return {
      held: inside.status === 409 && after.status === 201 && charges === 1,
      said: `inside the margin ${inside.status}, after it ${after.status}; charges ${charges}`,
    };
  },
};

/** 3b: the owner dies after the PSP charged; the takeover checks the durable record first and replays pay_7:charge. */
export const crashedAfterCharge: StoryScene = {
  description: "a crashed owner after the PSP charged: the takeover reads the durable record first (Part 3)",
  env: { EO_TEST_UNSAFE_NO_DURABLE_GUARD: "1" },
  outcome: "the takeover finds the PENDING row and replays its derived key; the PSP answers the saved charge",
  failure: "the takeover, with no durable record to read, mints a new payment and charges again",
  async play(s: SceneStage) {
    const { api, t } = s;
    const token = await api.token(`buyer-3b-${s.tag}`);
    const key = `K1-3b-${s.tag}`;
    await api.local("R1", "POST", "/faults", { crash_at: "pay.after_psp" });
    const first = await api.pay("R1", token, key, orderOf(s, "3b"));
    t.mark("R1", "handler", `A1 charged and died before its answer (the phone heard ${first.status})`);
    await clockOn(s, LEASE_S + MARGIN_S + 0.5);
    const takeover = await api.pay("R1", token, key, orderOf(s, "3b"));
    const charges = chargesOf(s.stack, s.amount);
    t.mark(
      "R1",
      "phone",
      `retry after lease + margin takes over: ${takeover.status} ${String(takeover.body.state ?? "")}; charges ${charges}`,
    );
    return { held: takeover.status === 201 && charges === 1, said: `charges for the order ${charges}` };
  },
};

/** 3c: the owner pauses after the PSP answered and wakes after a takeover: a zombie that must not answer as first. */
export const pausedOwner: StoryScene = {
  description: "a paused owner wakes after the takeover: completion is conditional on owner = me (Part 3)",
  env: { EO_TEST_UNSAFE_UNCONDITIONAL_COMPLETION: "1" },
  outcome: "the zombie's completion fails; it reads the record and answers as a repeat",
  failure: "the zombie overwrites the new owner's key record and answers as the first",
  async play(s: SceneStage) {
    const { api, t } = s;
    const token = await api.token(`buyer-3c-${s.tag}`);
    const key = `K1-3c-${s.tag}`;
    await api.local("R1", "POST", "/faults", { stall_after_psp_ms: 3_000, n: 1 });
    const original = api.pay("R1", token, key, orderOf(s, "3c"));
    await until("A1's charge", async () => (chargesOf(s.stack, s.amount) === 1 ? true : undefined));
    t.mark("R1", "handler", "A1 charged and froze (a GC pause, a paused VM), still believing it owns K1");
    await clockOn(s, LEASE_S + MARGIN_S + 0.5);
    const takeover = await api.pay("R1", token, key, orderOf(s, "3c"));
    t.mark("R1", "phone", `retry after lease + margin takes over: ${takeover.status}`);
    const woke = await original;
    const replayed = woke.headers["idempotent-replayed"] === "true";
    t.mark(
      "R1",
      "handler",
      `A1 woke: ${woke.status}, ${replayed ? "answered as a repeat" : "answered as the FIRST (it overwrote the record)"}`,
    );
    const charges = chargesOf(s.stack, s.amount);
    return {
      held: takeover.status === 201 && replayed && charges === 1,
      said: `the zombie answered ${replayed ? "as a repeat" : "as the first"}; charges ${charges}`,
    };
  },
};
