import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createWorld, type World } from "../../src/world/create-world.js";
import { WorldBudgetExceeded, WorldStalled, WorldTaskFailed } from "../../src/world/world-errors.js";

let world: World | undefined;

// A real server that accepts and never answers: a socket to it stays open, as a real call would while in flight.
let server: net.Server;
let port = 0;
const sockets: net.Socket[] = [];
beforeAll(async () => {
  server = net.createServer((s) => void sockets.push(s));
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as net.AddressInfo).port;
});
// The world counts live sockets against those alive when it was made, so each test closes both ends fully.
afterEach(async () => {
  world?.uninstall();
  await Promise.all(sockets.splice(0).map((s) => new Promise((r) => s.destroy().once("close", r))));
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

function awaitRealReply(): { done: Promise<void>; close(): Promise<void> } {
  const socket = net.connect(port, "127.0.0.1");
  return {
    done: new Promise<void>((resolve) => socket.once("data", () => resolve())),
    close: () => new Promise<void>((r) => socket.destroy().once("close", () => r())),
  };
}

describe("hazards inside the world", () => {
  it("stops with the open tasks named when a task awaits real I/O and no timer is pending", async () => {
    world = createWorld({ seed: 1 });
    const call = awaitRealReply();
    world.spawn("psp-caller", () => call.done);

    const run = world.runUntilIdle();

    await expect(run).rejects.toThrow(WorldStalled);
    await expect(run).rejects.toThrow(/psp-caller.*real I\/O in flight: TCP/);
    world.uninstall();
    await call.close();
  });

  it("refuses to jump virtual time while real I/O is in flight", async () => {
    world = createWorld({ seed: 1 });
    const call = awaitRealReply();
    world.spawn("psp-caller", () => call.done);
    setTimeout(() => {}, 30_000); // the SDK's timeout, say: jumping to it would race the reply

    const error = await world.runUntilIdle().catch((e: unknown) => e);

    expect(error).toBeInstanceOf(WorldStalled);
    expect((error as WorldStalled).realIo.join()).toMatch(/TCP/);
    expect((error as WorldStalled).openTasks).toContain("psp-caller");
    world.uninstall();
    await call.close();
  });

  it("names a task that awaits a promise nothing in the world will settle", async () => {
    world = createWorld({ seed: 1 });
    world.spawn("forgotten-wakeup", () => new Promise(() => {}));

    await expect(world.runUntilIdle()).rejects.toThrow(/forgotten-wakeup.*nothing in the world will settle/);
  });

  it("lets a daemon wait for data without stalling the world", async () => {
    world = createWorld({ seed: 1 });
    world.spawn("stream-poller", () => new Promise(() => {}), { daemon: true });
    world.spawn("phone", () => new Promise((r) => setTimeout(r, 100)));

    await world.runUntilIdle();

    expect(world.stats().openTasks).toEqual(["stream-poller"]);
  });

  it("surfaces a failed task and a throwing timer callback as WorldTaskFailed", async () => {
    world = createWorld({ seed: 1 });
    world.spawn("operator", async () => {
      await new Promise((r) => setTimeout(r, 10));
      throw new Error("lease lost");
    });

    await expect(world.runUntilIdle()).rejects.toThrow(/"operator" failed: lease lost/);
    setTimeout(() => {
      throw new Error("boom");
    }, 5);
    await expect(world.runFor(10)).rejects.toBeInstanceOf(WorldTaskFailed);
    expect(world.history().at(-1)).toMatch(/fail timer callback: Error: boom/);
  });

  it("gives run() the main task's own result or error", async () => {
    world = createWorld({ seed: 1 });

    await expect(world.run(async () => 7)).resolves.toBe(7);
    await expect(world.run(() => Promise.reject(new TypeError("bad")))).rejects.toThrow(TypeError);
  });

  it("stops an endless interval at the virtual-time budget and a busy loop of immediates at the event budget", async () => {
    world = createWorld({ seed: 1, maxEventsPerInstant: 1_000 });
    const h = setInterval(() => {}, 1_000);

    await expect(world.runUntilIdle({ maxMs: 60_000 })).rejects.toThrow(WorldBudgetExceeded);
    clearInterval(h);
    const spin = () => void setImmediate(spin);
    spin();
    await expect(world.runUntilIdle()).rejects.toThrow(/busy loop/);
  });

  it("refuses a second world while one is installed", () => {
    world = createWorld({ seed: 1 });

    expect(() => createWorld({ seed: 2 })).toThrow(/already installed/);
  });
});
