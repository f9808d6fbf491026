import { randomUUID } from "node:crypto";
import { GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { DrillApi, until } from "../drills/drill-api";
import type { Timeline } from "../drills/timeline";
import { LOCAL_CREDENTIALS } from "../stack/regions";
import type { LocalStack } from "../stack/start-stack";

/** What one playing of a scene runs on: the stack, the two Regions' APIs, its timeline and its own parties. */
export interface SceneStage {
  stack: LocalStack;
  api: DrillApi;
  t: Timeline;
  /** Unique per playing: callers, keys and merchants carry it, so the two playings never meet. */
  tag: string;
  /** The order's amount, unique per playing on the stack, so that the PSP's charges of this playing can be counted. */
  amount: number;
  merchant: string;
}

/** What a playing came to: whether the seed's outcome held, and the count in a few words. */
export interface SceneOutcome {
  held: boolean;
  said: string;
}

/**
 * A variant of the story that is not the main line with a guard off (3a–3d, R, V, M): played once with the guard
 * and once with its test-only switch, on the same stack, to show what the guard is for.
 */
export interface StoryScene {
  description: string;
  /** The switches that take the guard away (the primary Region, where the scenes play, runs in this process). */
  env: Record<string, string>;
  /** The seed's outcome with the guard in place, in words. */
  outcome: string;
  /** The seed's failure without it, in words. */
  failure: string;
  play(s: SceneStage): Promise<SceneOutcome>;
}

/** Both playings of a scene. */
export interface ScenePlayed {
  guarded: SceneOutcome;
  unguarded: SceneOutcome;
}

/** Plays the scene with its guard, then with its switch (always switched back), and clears the faults left armed. */
export async function playScene(stack: LocalStack, scene: StoryScene, t: Timeline): Promise<ScenePlayed> {
  const api = new DrillApi({ R1: stack.apiUrl, R2: stack.standbyUrl ?? stack.apiUrl });
  const stage = (half: string): SceneStage => {
    const tag = `${half}-${randomUUID().slice(0, 6)}`;
    return { stack, api, t, tag, amount: nextAmount(), merchant: `m1-${tag}` };
  };
  t.mark("-", "scene", `with the guard: ${scene.outcome}`);
  await quietStack(stack);
  const guarded = await scene.play(stage("guarded"));
  await api.local("R1", "DELETE", "/faults");
  t.mark("-", "scene", `without it (${Object.keys(scene.env).join(", ")}=1)`);
  await quietStack(stack);
  Object.assign(process.env, scene.env);
  try {
    const unguarded = await scene.play(stage("unguarded"));
    return { guarded, unguarded };
  } finally {
    for (const name of Object.keys(scene.env)) delete process.env[name];
    await api.local("R1", "DELETE", "/faults");
  }
}

// Every playing on a stack gets an amount of its own (3,010, 3,020, …), so that its charges can be counted apart.
let amounts = 0;
const nextAmount = () => 3_000 + 10 * ++amounts;

/**
 * Waits until an earlier playing's async work is over (webhooks delivered, the events queue empty), so that a fault
 * armed for this playing is taken by this playing's event and by nothing still in flight.
 */
async function quietStack(stack: LocalStack): Promise<void> {
  const { endpoints, regions } = stack.emulators;
  const sqs = new SQSClient({
    endpoint: endpoints.sqs,
    region: regions.primary.region,
    credentials: LOCAL_CREDENTIALS,
    useQueueUrlAsEndpoint: false,
  });
  const depth = async () => {
    const names = ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"] as const;
    const out = await sqs.send(
      new GetQueueAttributesCommand({ QueueUrl: regions.primary.queues.events, AttributeNames: [...names] }),
    );
    return names.reduce((n, a) => n + Number(out.Attributes?.[a] ?? 0), 0);
  };
  try {
    await until(
      "the stack to go quiet",
      async () => (stack.psp.webhooksPending() === 0 && (await depth()) === 0 ? true : undefined),
      30_000,
    );
  } finally {
    sqs.destroy();
  }
}

/** The PSP's charges of one amount: one playing's charges, under any payment id. */
export function chargesOf(stack: LocalStack, amount: number): number {
  return (stack.psp.charges() as Array<{ amount: number }>).filter((c) => c.amount === amount).length;
}

/** The story's order body for a playing. */
export function orderOf(s: SceneStage, name: string, amount = s.amount): Record<string, unknown> {
  return {
    order_id: `o-${name}-${s.tag}`,
    amount,
    currency: "USD",
    payment_method: "pm_card_visa",
    merchant_id: s.merchant,
  };
}

/** Moves every local component's clock on by `seconds`. */
export async function clockOn(s: SceneStage, seconds: number): Promise<void> {
  await s.api.local("R1", "POST", "/clock", { advance_s: seconds });
}
