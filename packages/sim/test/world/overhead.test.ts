import { afterEach, describe, expect, it } from "vitest";
import { createWorld, type World } from "../../src/world/create-world.js";

// Bound before any world is installed, so it reads real time while the world fakes `performance`.
const realNow = performance.now.bind(performance);
let world: World | undefined;
afterEach(() => world?.uninstall());

describe("the world's own cost", () => {
  // Pure models first: once AsyncLocalStorage has been used, Node keeps its promise hooks on for the process.
  it.each([
    ["without async context (pure models)", false],
    ["with async context (the default)", true],
  ])("processes timer events at a measured rate %s (printed, not asserted)", async (label, asyncContext) => {
    world = createWorld({ seed: 11, timerJitterMs: 2, asyncContext });
    const w = world;
    const actors = 50;
    const stepsEach = 2_000;
    let steps = 0;
    for (let a = 0; a < actors; a++) {
      w.spawn(`actor-${a}`, async () => {
        for (let i = 0; i < stepsEach; i++) {
          await new Promise((r) => setTimeout(r, w.int(1, 100)));
          steps++;
        }
      });
    }

    const t0 = realNow();
    await w.runUntilIdle({ maxMs: 10 * 24 * 3600_000 });
    const realMs = realNow() - t0;

    const { events, nowMs } = w.stats();
    const virtualMs = nowMs - Date.UTC(2026, 0, 1);
    console.log(
      `world overhead ${label}: ${events} events in ${realMs.toFixed(0)} ms real = ${Math.round((events / realMs) * 1000)} events/s; ` +
        `${(virtualMs / 1000).toFixed(0)} s virtual (${Math.round(virtualMs / realMs)}x real time)`,
    );
    expect(steps).toBe(actors * stepsEach);
    expect(events).toBe(actors * stepsEach + actors);
  });
});
