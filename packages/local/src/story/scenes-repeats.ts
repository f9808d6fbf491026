import { randomUUID } from "node:crypto";
import { until } from "../drills/drill-api";
import { chargesOf, orderOf, type SceneStage, type StoryScene } from "./story-scenes";

/** 3d: the same key with another meaning (A2 at 3,500 after A1's order) is refused, and nothing runs. */
export const keyWithAnotherMeaning: StoryScene = {
  description:
    "the same key with another amount: the fingerprint binds the key to one request (side trace 3d)",
  env: { EO_TEST_UNSAFE_NO_FINGERPRINT: "1" },
  outcome:
    "422 and nothing changes; the same fields reordered, plus a client timestamp, are the same request",
  failure: "the other amount answered as the first request: told it succeeded, although nothing of it ran",
  async play(s: SceneStage) {
    const { api, t } = s;
    const token = await api.token(`buyer-3d-${s.tag}`);
    const key = `K1-3d-${s.tag}`;
    const a1 = orderOf(s, "3d");
    const first = await api.pay("R1", token, key, a1);
    t.mark("R1", "phone", `A1 with K1: ${first.status} ${String(first.body.state ?? "")}`);
    // Another amount no playing uses (theirs are multiples of 10).
    const other = s.amount + 5;
    const a2 = await api.pay("R1", token, key, { ...a1, amount: other });
    t.mark(
      "R1",
      "phone",
      `A2 with K1 but amount ${other}: ${a2.status} ${String(a2.body.state ?? a2.body.title ?? "")}`,
    );
    const reordered = Object.fromEntries([...Object.entries(a1)].reverse());
    const again = await api.pay("R1", token, key, { ...reordered, client_ts: Date.now() });
    t.mark("R1", "phone", `A1 reordered, plus a client timestamp: ${again.status}`);
    const ranOther = chargesOf(s.stack, other);
    return {
      held: a2.status === 422 && again.status === 201 && ranOther === 0,
      said: `A2 answered ${a2.status}; charges of ${other}: ${ranOther}`,
    };
  },
};

/** Branch R: a worker that committed and died before sending; the redelivery's duplicate must finish the intents. */
export const readyMeansNotified: StoryScene = {
  description: "a worker dies after its commit, before the push: ready means notified (Part 7)",
  env: { EO_TEST_UNSAFE_DUPLICATE_ONLY_ACKS: "1" },
  outcome:
    "the redelivery finds the inbox's record, checks the notification record and sends: one notification",
  failure: "the redelivery only acknowledges the duplicate: m1 credited, the phone shows nothing",
  async play(s: SceneStage) {
    const { api, t } = s;
    const caller = `buyer-R-${s.tag}`;
    const token = await api.token(caller);
    const device = { platform: "apns", token: `tok-${randomUUID()}` };
    await api.send("R1", "POST", "/devices", { authorization: `Bearer ${token}` }, device);
    await api.local("R1", "POST", "/faults", { worker_crash_after_commit: 1 });
    const paid = await api.pay("R1", token, `K1-R-${s.tag}`, orderOf(s, "R"));
    t.mark("R1", "phone", `tap: ${paid.status} ${String(paid.body.state ?? "")}`);
    await until("m1's credit", async () => ((await balanceOf(s)) === s.amount ? true : undefined), 20_000);
    t.mark("R1", "worker", "committed (inbox, credit, intents) and died before the push; SQS redelivers");
    // The redelivery comes after the queue's visibility timeout (2 s in the story); give it a few more.
    const shown = await until("the notification", () => screenOf(s, caller), 8_000).catch(() => 0);
    t.mark(
      "R1",
      "phone",
      `after the redelivery the phone shows ${shown} notification(s); m1 ${await balanceOf(s)}`,
    );
    return { held: shown === 1, said: `notifications shown ${shown}; m1 credited ${s.amount}` };
  },
};

async function balanceOf(s: SceneStage): Promise<number> {
  return Number((await s.api.local("R1", "GET", `/merchants/${s.merchant}`)).body.balance ?? 0);
}

// The number shown once the phone shows any, else undefined (still waiting).
async function screenOf(s: SceneStage, caller: string): Promise<number | undefined> {
  const screen = (await s.api.local("R1", "GET", `/devices/${caller}`)).body as { shown?: unknown[] };
  const n = (screen.shown ?? []).length;
  return n > 0 ? n : undefined;
}
