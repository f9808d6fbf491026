import { randomBytes, randomUUID } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createWorld, type World } from "../../src/world/create-world.js";

let world: World | undefined;
afterEach(() => world?.uninstall());

/** Phones, a poller and an operator racing over shared state, with every delay and id drawn inside the world. */
async function scenario(seed: number): Promise<{ history: readonly string[]; hash: string }> {
  world = createWorld({ seed, timerJitterMs: 3, spawnJitterMs: 5 });
  const w = world;
  const inbox: string[] = [];
  for (const phone of ["alice", "bob", "carol"]) {
    w.spawn(`phone-${phone}`, async () => {
      for (let i = 0; i < 4; i++) {
        await new Promise((r) => setTimeout(r, Math.floor(Math.random() * 50)));
        const id = randomUUID().slice(0, 8);
        inbox.push(id);
        w.trace({ phone, sent: id, at: new Date().toISOString() });
      }
    });
  }
  w.spawn("poller", async () => {
    for (let polls = 0; polls < 12; polls++) {
      await w.sleep(w.int(5, 40));
      w.trace(`poller took ${inbox.splice(0).join(",") || "nothing"} (${randomBytes(2).toString("hex")})`);
    }
  });
  w.spawn("operator", () => {
    let ticks = 0;
    const h = setInterval(() => {
      w.trace(`operator tick ${++ticks} sees ${inbox.length} queued, mood ${w.pick(["calm", "busy"])}`);
      if (ticks === 5) clearInterval(h);
    }, 30);
  });
  await w.runUntilIdle({ maxMs: 60_000 });
  const out = { history: [...w.history()], hash: w.historyHash() };
  w.uninstall();
  return out;
}

describe("a seeded world", () => {
  it("replays a scenario of concurrent actors, timers and random delays byte for byte", async () => {
    const first = await scenario(42);

    const second = await scenario(42);

    expect(second.history).toEqual(first.history);
    expect(second.hash).toBe(first.hash);
    expect(first.history.length).toBeGreaterThan(30);
    expect(first.history.filter((l) => l.includes("poller took")).length).toBe(12);
  });

  it("tells seeds apart: another seed gives another history", async () => {
    const a = await scenario(42);

    const b = await scenario(43);

    expect(b.hash).not.toBe(a.hash);
    expect(b.history).not.toEqual(a.history);
  });

  it("lets the seed decide the order of actors spawned at the same instant", async () => {
    const orderOf = async (seed: number) => {
      world = createWorld({ seed });
      const started: string[] = [];
      for (const name of ["a", "b", "c", "d"]) world.spawn(name, () => void started.push(name));
      await world.runUntilIdle();
      world.uninstall();
      return started.join("");
    };

    const orders = new Set<string>();
    for (let seed = 1; seed <= 12; seed++) orders.add(await orderOf(seed));

    expect(orders.size).toBeGreaterThan(3);
    expect(await orderOf(5)).toBe(await orderOf(5));
  });

  it("draws Math.random, randomUUID (named import and global) and getRandomValues from the seed", async () => {
    const draw = (seed: number) => {
      world = createWorld({ seed });
      const values = [
        Math.random(),
        randomUUID(),
        globalThis.crypto.randomUUID(),
        [...crypto.getRandomValues(new Uint8Array(4))],
      ];
      world.uninstall();
      return values;
    };

    const first = draw(9);
    const second = draw(9);

    expect(second).toEqual(first);
    expect(first[1]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(draw(10)).not.toEqual(first);
  });

  it("keeps world.random, int and pick within their ranges", () => {
    world = createWorld({ seed: 5 });
    const w = world;

    const floats = Array.from({ length: 1_000 }, () => w.random());
    const ints = Array.from({ length: 1_000 }, () => w.int(-2, 2));
    const picks = new Set(Array.from({ length: 200 }, () => w.pick(["x", "y", "z"])));

    expect(Math.min(...floats)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...floats)).toBeLessThan(1);
    expect(new Set(ints)).toEqual(new Set([-2, -1, 0, 1, 2]));
    expect(picks).toEqual(new Set(["x", "y", "z"]));
    expect(() => w.pick([])).toThrow(RangeError);
  });

  it("leaves the scheduler's choices alone when production code draws more Math.random", async () => {
    const ties = async (extraDraws: number) => {
      world = createWorld({ seed: 77 });
      const started: string[] = [];
      for (let i = 0; i < extraDraws; i++) Math.random();
      for (const name of ["a", "b", "c", "d", "e"]) world.spawn(name, () => void started.push(name));
      await world.runUntilIdle();
      world.uninstall();
      return started.join("");
    };

    expect(await ties(100)).toBe(await ties(0));
  });
});
