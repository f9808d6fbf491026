import { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../../scripts/lib/chaos/chaos-stack";
import { schedulesOf } from "../../../scripts/lib/chaos/long-run";
import { runOne } from "../../../scripts/lib/chaos/run-one";
import { startSimStack } from "../src/stack/start-sim-stack";
import { createWorld } from "../src/world/index";

const regions = (Number(process.env.REGIONS ?? 1) === 2 ? 2 : 1) as 1 | 2;
const runs = Number(process.env.RUNS ?? 3);
const realNow = Date.now;
const wall = () => realNow();
Object.assign(process.env, chaosEnv(), { RESOLVER_EVERY_MS: "0", SWEEPS_EVERY_MS: "0" });
const realSetInterval = setInterval;
const world = createWorld({ seed: 7, startMs: Date.UTC(2026, 11, 6), realIo: "await" });
const t00 = realNow();
realSetInterval(() => {
  const st = world.stats();
  console.log(`[watch] real ${realNow() - t00} ms virtual ${new Date(st.nowMs).toISOString()} events ${st.events} open ${st.openTasks.join(",")} timers ${st.pendingTimers}`);
}, 5_000).unref();
const schedules = schedulesOf(Number(process.env.SEED ?? 11), runs, regions);
console.log("starting");
const stack = await world.run(() =>
  startSimStack(world.clock, regions === 2 ? CHAOS_TWO_REGION_OPTIONS : CHAOS_STACK_OPTIONS),
);
console.log("started");
const proto = ChaosApi.prototype as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
for (const m of ["local", "pay", "resolve", "cancel", "payment"]) {
  const f = proto[m] as (...a: unknown[]) => Promise<unknown>;
  proto[m] = async function (this: unknown, ...a: unknown[]) {
    const t = Date.now();
    const out = await f.apply(this, a);
    console.log(`[api] ${new Date(t).toISOString().slice(14, 23)} +${Date.now() - t}ms ${m} ${JSON.stringify(a.slice(0, 2)).slice(0, 120)}`);
    return out;
  };
}
for (const [i, schedule] of schedules.entries()) {
  const t0 = wall();
  const v0 = world.clock.now();
  const record = await world.run(() => runOne(new ChaosApi(stack.apiUrl), schedule));
  console.log(
    `#${i} ${record.violations.length} violations ${JSON.stringify(record.violations).slice(0, 300)} real ${wall() - t0} ms virtual ${world.clock.now() - v0} ms faults ${JSON.stringify(record.faultsFired)}`,
  );
}
await world.run(() => stack.stop());
world.uninstall();
