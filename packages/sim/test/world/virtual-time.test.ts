import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as sleepFromModule } from "node:timers/promises";
import { afterEach, describe, expect, it } from "vitest";
import { createWorld, type World } from "../../src/world/create-world.js";

const START = Date.UTC(2026, 0, 1);
let world: World | undefined;
afterEach(() => world?.uninstall());

describe("virtual time", () => {
  it("jumps an hour of waiting in one event, moving Date, performance.now and hrtime together", async () => {
    world = createWorld({ seed: 1, startMs: START });
    const perf0 = performance.now();
    const hr0 = process.hrtime.bigint();

    await world.run(() => new Promise((r) => setTimeout(r, 3_600_000)));

    expect(Date.now()).toBe(START + 3_600_000);
    expect(new Date().toISOString()).toBe("2026-01-01T01:00:00.000Z");
    expect(performance.now() - perf0).toBe(3_600_000);
    expect(process.hrtime.bigint() - hr0).toBe(3_600_000_000_000n);
    expect(world.clock.now()).toBe(START + 3_600_000);
    expect(world.stats().events).toBe(2); // the task's start and the one timeout
  });

  it("fires an interval once per period until it is cleared", async () => {
    world = createWorld({ seed: 1, startMs: START });
    const seen: number[] = [];

    await world.run(
      () =>
        new Promise<void>((done) => {
          const h = setInterval(() => {
            seen.push(Date.now() - START);
            if (seen.length === 3) {
              clearInterval(h);
              done();
            }
          }, 250);
        }),
    );
    await world.runFor(10_000);

    expect(seen).toEqual([250, 500, 750]);
  });

  it("runs immediates before timeouts due at the same instant, and gives setTimeout(0) Node's 1 ms", async () => {
    world = createWorld({ seed: 7, startMs: START, ties: "fifo" });
    const order: string[] = [];

    await world.run(async () => {
      setTimeout(() => order.push(`timeout@${Date.now() - START}`), 0);
      setImmediate(() => order.push(`immediate@${Date.now() - START}`));
      await new Promise((r) => setTimeout(r, 5));
    });

    expect(order).toEqual(["immediate@0", "timeout@1"]);
  });

  it("settles promise continuations of one timer before the next timer at that instant fires", async () => {
    world = createWorld({ seed: 3, startMs: START, ties: "fifo" });
    const order: string[] = [];

    await world.run(async () => {
      setTimeout(async () => {
        order.push("a");
        await Promise.resolve();
        await Promise.resolve();
        order.push("a-continued");
      }, 10);
      setTimeout(() => order.push("b"), 10);
      await new Promise((r) => setTimeout(r, 20));
    });

    expect(order).toEqual(["a", "a-continued", "b"]);
  });

  it("cancels by numeric id and by handle, and an unref'd timer does not keep the world busy", async () => {
    world = createWorld({ seed: 1, startMs: START });
    const fired: string[] = [];

    const byId = setTimeout(() => fired.push("by-id"), 10);
    clearTimeout(Number(byId));
    clearTimeout(setTimeout(() => fired.push("by-handle"), 10));
    setTimeout(() => fired.push("unref"), 60_000).unref();
    await world.runUntilIdle();

    expect(fired).toEqual([]);
    expect(world.stats().pendingTimers).toBe(1);
    await world.runFor(60_000);
    expect(fired).toEqual(["unref"]);
  });

  it("serves node:timers/promises and AbortSignal.timeout from virtual time", async () => {
    world = createWorld({ seed: 1, startMs: START });

    const result = await world.run(async () => {
      const value = await sleepFromModule(1_500, "slept");
      const signal = AbortSignal.timeout(2_000);
      const aborted = await new Promise<string>((r) =>
        signal.addEventListener("abort", () => r(signal.reason.name)),
      );
      return { value, aborted, at: Date.now() - START };
    });

    expect(result).toEqual({ value: "slept", aborted: "TimeoutError", at: 3_500 });
  });

  it("refreshes a timeout from the current virtual time", async () => {
    world = createWorld({ seed: 1, startMs: START });
    let firedAt = -1;

    await world.run(async () => {
      const h = setTimeout(() => {
        firedAt = Date.now() - START;
      }, 100);
      await new Promise((r) => setTimeout(r, 60));
      h.refresh();
      await new Promise((r) => setTimeout(r, 200));
    });

    expect(firedAt).toBe(160);
  });

  it("gives back the real timers and Date on uninstall", async () => {
    world = createWorld({ seed: 1, startMs: START });
    const fakeSetTimeout = globalThis.setTimeout;

    world.uninstall();

    expect(globalThis.setTimeout).not.toBe(fakeSetTimeout);
    expect(Math.abs(Date.now() - START)).toBeGreaterThan(1_000);
    await new Promise((r) => setTimeout(r, 1));
  });
});

describe("async context across virtual timers", () => {
  it("runs each timer callback and spawned task in the AsyncLocalStorage context that scheduled it", async () => {
    world = createWorld({ seed: 2 });
    const w = world;
    const store = new AsyncLocalStorage<string>();
    const seen: string[] = [];
    const see = (what: string) => seen.push(`${what}:${store.getStore() ?? "none"}`);

    store.run("region-1", () => {
      setTimeout(() => see("timeout"), 10);
      setImmediate(() => see("immediate"));
      const h = setInterval(() => {
        see("interval");
        clearInterval(h);
      }, 20);
      w.spawn("phone", async () => {
        await sleepFromModule(30);
        see("task");
      });
    });
    store.run("region-2", () => setTimeout(() => see("other"), 40));
    setTimeout(() => see("outside"), 50);
    await w.runUntilIdle();

    expect(seen).toEqual([
      "immediate:region-1",
      "timeout:region-1",
      "interval:region-1",
      "task:region-1",
      "other:region-2",
      "outside:none",
    ]);
  });
});
