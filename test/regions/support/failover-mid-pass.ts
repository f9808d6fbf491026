import { loadTunables, paymentIdOf } from "../../../packages/core/src";
import type { LocalStack } from "../../../packages/local/src/stack/start-stack";
import { ApiClient, order42 } from "../../support/api-client";
import { makeActive } from "../../support/regions";
import { eventually } from "../../support/tables";

/**
 * A resolver pass in the primary (epoch 1) replays K1's charge, whose PSP call is slow. Meanwhile the authority
 * names the standby, where the app asks about K2 (the primary died after K2's durable guard, unreplicated), hears
 * VOID and pays again with K3; then it names the primary again (epoch 3), so that the fence on each write lets the
 * pass go on. The pass then comes to K2, a row of epoch 1, which it would take for one of its own. `startPass`
 * starts the pass (the scheduled Lambda, or the operator's script) and answers what it reported.
 */
export async function failoverMidPass<T>(stack: LocalStack, startPass: () => Promise<T>) {
  const primary = new ApiClient(stack.apiUrl);
  const standby = new ApiClient(stack.standbyUrl ?? "");
  const caller = `rr-${Date.now().toString(36)}`;
  const token = await primary.token(caller);
  const [k1, k2, k3] = ["k1", "k2", "k3"].map((k) => `${caller}-${k}`) as [string, string, string];
  await primary.local("POST", "/replication", { paused: true });
  // Two payments whose owner died after the durable guard: K1's row is the older, so the pass comes to it first.
  for (const [key, order] of [
    [k1, "o1"],
    [k2, "o2"],
  ] as const) {
    await primary.local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
    // A 503 psp-unavailable ran nothing (the budget's slot): the phone retries the same key at Retry-After.
    for (let tries = 0; tries < 10; tries++) {
      const died = await primary.pay(token, key, order42({ order_id: order }));
      if (died.status !== 503) break;
      await new Promise((r) => setTimeout(r, 1_000));
    }
  }
  // Both rows past their owner's deadline, in real time: an operator's script runs in a process of its own, whose
  // clock the local stack's offset does not move.
  const { deadlineMs, takeoverMarginMs } = loadTunables();
  await new Promise((r) => setTimeout(r, deadlineMs + takeoverMarginMs + 500));
  await primary.local("POST", "/faults", { psp_delay_ms: 4_000, n: 1 });
  const pass = startPass();
  await eventually(
    async () => ((await primary.local("GET", "/psp/stats")).body.held ? true : undefined),
    30_000,
    "the resolver's replay of K1 held at the PSP",
  );
  await makeActive(stack, "standby", "test: a failover in the middle of a resolver pass");
  const voided = await standby.resolve(token, k2);
  const repaid =
    voided.body.state === "VOID"
      ? await standby.payAsPhone(token, k3, order42({ order_id: "o2" }))
      : undefined;
  await makeActive(stack, "primary", "test: and back, before the pass goes on");
  const report = await pass;
  await new Promise((r) => setTimeout(r, 1_000)); // K3's charge, if its reply was late, is at the PSP by now
  const refs = [paymentIdOf(caller, k2), paymentIdOf(caller, k3)];
  const charges = (stack.psp.charges() as Array<{ reference: string }>).filter((c) =>
    refs.includes(c.reference),
  );
  return { voided, repaid, report, charges, k2: paymentIdOf(caller, k2) };
}

/** Settles what a stopped pass left, so that the next test's pass does not come to it first (oldest first). */
export async function settleLeftovers(stack: LocalStack): Promise<void> {
  const primary = new ApiClient(stack.apiUrl);
  for (let pass = 0; pass < 3; pass++) {
    await primary.local("POST", "/clock", { advance_s: 30 });
    const { backlog } = (await primary.local("POST", "/run/resolver")).body.result as { backlog: number };
    if (backlog === 0) break;
  }
}
