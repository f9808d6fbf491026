import { createHash } from "node:crypto";
import fc from "fast-check";
import { startSimStack } from "../../../packages/sim/src/stack/start-sim-stack";
import { createWorld } from "../../../packages/sim/src/world/index";
import { scheduleArbitrary, twoRegionScheduleArbitrary } from "../chaos/arbitraries";
import { ChaosApi } from "../chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../chaos/chaos-stack";
import type { RunRecord } from "../chaos/history";
import { realWorldScheduleArbitrary } from "../chaos/real-world-arbitraries";
import { runOne } from "../chaos/run-one";
import { type ClientSwitches, needsTwoRegions, type Schedule } from "../chaos/schedule";

/** Where schedule 0's world starts; schedule i's starts 6 h later per index, so no cache of an earlier one is fresh. */
const BASE_MS = Date.UTC(2026, 0, 1);
const APART_MS = 6 * 3_600_000;

/** One schedule of a simulated run, named by the run's seed and its index. */
export interface SimSchedule {
  seed: number;
  index: number;
  regions: 1 | 2;
  /** Two-Region schedules only: drawn with what the real world adds to the nemesis. */
  realWorld?: boolean;
}

/** What one schedule's play gave: the checker's record and the hash of its history (the same on every replay). */
export interface SimResult {
  record: RunRecord;
  historyHash: string;
  virtualMs: number;
}

/** A 31-bit seed for one index of a run: schedule i of a seed is always the same one, in any process. */
export function indexSeed(seed: number, index: number, salt = 0): number {
  const h = createHash("sha256").update(`${seed}:${index}:${salt}`).digest();
  return h.readUInt32BE(0) & 0x7fffffff;
}

/** The schedule a run's index plays: drawn from its own seed, so no earlier schedule need be drawn first. */
export function scheduleAt(s: SimSchedule): Schedule {
  const arbitrary =
    s.regions === 1
      ? scheduleArbitrary
      : s.realWorld
        ? realWorldScheduleArbitrary
        : twoRegionScheduleArbitrary;
  return fc.sample(arbitrary, { seed: indexSeed(s.seed, s.index), numRuns: 1 })[0] as Schedule;
}

/**
 * The local runtime's polls, at the rates of what they stand for: Lambda reads a stream 4 times a second, and the
 * replicator and the fake PSP's settling need no more; the emulator stack polls faster only to shorten real waits.
 * In virtual time every poll is an event, so these set the simulation's cost per schedule.
 */
const SIM_POLLS = {
  LOCAL_STREAM_POLL_MS: "250",
  LOCAL_REPLICATION_POLL_MS: "250",
  PSP_SETTLE_POLL_MS: "250",
};

/** Sets the chaos stacks' short timings and the server guards taken away, as `npm run chaos` gives its stacks. */
export function useChaosEnv(serverSwitches: Record<string, string>): void {
  Object.assign(
    process.env,
    chaosEnv(),
    { RESOLVER_EVERY_MS: "0", SWEEPS_EVERY_MS: "0" },
    SIM_POLLS,
    serverSwitches,
  );
}

/**
 * Plays one schedule in a world of its own: a fresh stack on the models, the world seeded from the run's seed and
 * the index, the existing checker judging it. The same arguments give the same history, byte for byte.
 */
export async function playInWorld(
  at: SimSchedule,
  schedule: Schedule = scheduleAt(at),
  client: ClientSwitches = {},
): Promise<SimResult> {
  const startMs = BASE_MS + at.index * APART_MS;
  const world = createWorld({ seed: indexSeed(at.seed, at.index, 1), startMs, realIo: "await" });
  try {
    const two = at.regions === 2 || needsTwoRegions(schedule);
    const stack = await world.run(() =>
      startSimStack(world.clock, two ? CHAOS_TWO_REGION_OPTIONS : CHAOS_STACK_OPTIONS),
    );
    try {
      const server = Object.keys(process.env).filter(
        (k) => k.startsWith("EO_TEST_UNSAFE_") && process.env[k] === "1",
      );
      const record = await world.run(() => runOne(new ChaosApi(stack.apiUrl), schedule, client, server));
      const historyHash = createHash("sha256").update(JSON.stringify(record.history)).digest("hex");
      return {
        record: { ...record, seed: at.seed, path: String(at.index) },
        historyHash,
        virtualMs: world.clock.now() - startMs,
      };
    } finally {
      await world.run(() => stack.stop());
    }
  } finally {
    world.uninstall();
  }
}

/**
 * Plays one throwaway schedule before the first that counts: a process's first stack initialises every module (and
 * draws the randomness that takes), so every schedule after it starts from the same state, alone or after others.
 */
export async function warmUp(regions: 1 | 2): Promise<void> {
  if (warmed) return;
  warmed = true;
  await playInWorld({ seed: 0, index: -4, regions });
}

let warmed = false;
