import crypto from "node:crypto";
import timers from "node:timers";
import timersPromises from "node:timers/promises";
import FakeTimers from "@sinonjs/fake-timers";
import { PatchSet } from "./patch-set.js";
import type { Scheduler } from "./scheduler.js";
import type { SeededRandom } from "./seeded-random.js";
import {
  type VirtualTimerFunctions,
  virtualAbortTimeout,
  virtualTimerFunctions,
  virtualTimerPromises,
} from "./virtual-timer-functions.js";

/** What the world replaces while installed. */
export interface InstallOptions {
  readonly startMs: number;
  /** When given, Math.random and crypto's random functions draw from it (see docs/world.md for what escapes). */
  readonly ambient: SeededRandom | undefined;
  readonly uncaught: (err: unknown) => void;
  /** Run each callback in the AsyncLocalStorage context that scheduled it, as Node does (costs a snapshot). */
  readonly asyncContext: boolean;
}

/** The installed world's hooks: move the faked Date/performance/hrtime with virtual time, and undo everything. */
export interface Installed {
  readonly advance: (deltaMs: number) => void;
  readonly restore: () => void;
}

const TIMER_NAMES = [
  "setTimeout",
  "setInterval",
  "setImmediate",
  "clearTimeout",
  "clearInterval",
  "clearImmediate",
];

/**
 * Replaces the timer globals (and `node:timers`, `node:timers/promises`, `AbortSignal.timeout`) with the
 * scheduler's, fakes `Date`, `performance.now`, `process.hrtime` and `Intl` clocks with fake-timers (whose own
 * timers stay unused), and optionally the ambient randomness.
 */
export function installGlobals(s: Scheduler, opts: InstallOptions): Installed {
  const g = globalThis as unknown as Record<string, unknown>;
  const realClears = {
    clearTimeout: g.clearTimeout as (h: unknown) => void,
    clearInterval: g.clearInterval as (h: unknown) => void,
    clearImmediate: g.clearImmediate as (h: unknown) => void,
  };
  const patches = new PatchSet();
  try {
    return patchAll(opts, patches, virtualTimerFunctions(s, realClears, opts.uncaught, opts.asyncContext));
  } catch (err) {
    patches.restore();
    throw err;
  }
}

function patchAll(opts: InstallOptions, patches: PatchSet, fns: VirtualTimerFunctions): Installed {
  const g = globalThis as unknown as Record<string, unknown>;
  const promised = virtualTimerPromises(fns);
  for (const name of TIMER_NAMES) {
    const fake = fns[name as keyof typeof fns];
    patches.set(g, name, fake);
    patches.set(timers, name, fake);
  }
  patches.set(timersPromises, "setTimeout", promised.setTimeout);
  patches.set(timersPromises, "setImmediate", promised.setImmediate);
  patches.set(timersPromises, "setInterval", promised.setInterval);
  patches.set(timersPromises, "scheduler", promised.scheduler);
  patches.set(AbortSignal, "timeout", virtualAbortTimeout(fns));
  const fake = FakeTimers.withGlobal(globalThis).install({
    now: opts.startMs,
    toFake: ["Date", "performance", "hrtime", "Intl"],
    ignoreMissingTimers: true,
  });
  patches.onRestore(() => fake.uninstall());
  if (opts.ambient !== undefined) patchAmbient(patches, opts.ambient);
  patches.sync();
  return { advance: (ms) => void fake.tick(ms), restore: () => patches.restore() };
}

function patchAmbient(patches: PatchSet, r: SeededRandom): void {
  patches.set(Math, "random", () => r.random());
  const uuid = () => r.uuid();
  const fill = <T extends ArrayBufferView | null>(view: T): T => {
    if (view === null) throw new TypeError("getRandomValues needs a typed array");
    new Uint8Array(view.buffer, view.byteOffset, view.byteLength).set(r.bytes(view.byteLength));
    return view;
  };
  const randomBytes = (n: number, cb?: (err: Error | null, buf: Buffer) => void) => {
    const buf = Buffer.from(r.bytes(n));
    if (cb === undefined) return buf;
    process.nextTick(cb, null, buf);
    return undefined;
  };
  patches.set(crypto, "randomUUID", uuid);
  patches.set(crypto, "randomBytes", randomBytes);
  // node:crypto's getRandomValues is a fixed getter that calls the webcrypto instance's, patched below
  const web = globalThis.crypto as unknown as object;
  patches.set(web, "randomUUID", uuid);
  patches.set(web, "getRandomValues", fill);
}
