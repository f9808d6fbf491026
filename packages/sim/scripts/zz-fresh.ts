import { writeFileSync } from "node:fs";
import { ChaosApi } from "../../../scripts/lib/chaos/chaos-api";
import { CHAOS_STACK_OPTIONS, CHAOS_TWO_REGION_OPTIONS, chaosEnv } from "../../../scripts/lib/chaos/chaos-stack";
import { schedulesOf } from "../../../scripts/lib/chaos/long-run";
import { runOne } from "../../../scripts/lib/chaos/run-one";
import { createHash } from "node:crypto";
import { startSimStack } from "../src/stack/start-sim-stack";
import { createWorld } from "../src/world/index";

const regions = (Number(process.env.REGIONS ?? 1) === 2 ? 2 : 1) as 1 | 2;
const runs = Number(process.env.RUNS ?? 3);
const from = Number(process.env.FROM ?? 0);
const realNow = Date.now;
Object.assign(process.env, chaosEnv(), { RESOLVER_EVERY_MS: "0", SWEEPS_EVERY_MS: "0" });
const schedules = schedulesOf(Number(process.env.SEED ?? 11), from + runs, regions).slice(from);
const DAY = 86_400_000;
const BASE = Date.UTC(2026, 11, 6);
{
  const world = createWorld({ seed: 1, startMs: BASE - DAY, realIo: "await" });
  const stack = await world.run(() => startSimStack(world.clock, regions === 2 ? CHAOS_TWO_REGION_OPTIONS : CHAOS_STACK_OPTIONS));
  await world.run(() => runOne(new ChaosApi(stack.apiUrl), schedulesOf(99, 1, regions)[0] as never));
  await world.run(() => stack.stop());
  world.uninstall();
}
const t00 = realNow();
for (const [i, schedule] of schedules.entries()) {
  const t0 = realNow();
  const world = createWorld({ seed: 1000 + from + i, startMs: BASE + (from + i) * DAY, realIo: "await" });
  const stack = await world.run(() => startSimStack(world.clock, regions === 2 ? CHAOS_TWO_REGION_OPTIONS : CHAOS_STACK_OPTIONS));
  const t1 = realNow();
  const f0 = globalThis.fetch;
  const inflight = new Map<number, string>();
  let nreq = 0;
  globalThis.fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const id = ++nreq;
    inflight.set(id, `${new Date().toISOString().slice(11, 23)} ${init?.method ?? "GET"} ${String(input)}`);
    const t = Date.now();
    try { return await f0(input, init); } finally { inflight.delete(id); if (Date.now() - t > 5000) console.log("SLOW", Date.now() - t, init?.method ?? "GET", String(input)); }
  }) as typeof fetch;
  {
    const { createRequire } = await import("node:module");
    const req = createRequire(import.meta.url);
    const { NodeHttpHandler } = req("@smithy/node-http-handler");
    const h0 = NodeHttpHandler.prototype.handle;
    if (!(h0 as { wrapped?: boolean }).wrapped) {
      const wrapped = async function (this: unknown, request: any, o: any) {
        const t = Date.now();
        try { return await h0.call(this, request, o); } finally {
          if (Date.now() - t > 5000) console.log("SLOW SDK", Date.now() - t, request.hostname, request.port, request.headers["x-amz-target"]);
        }
      };
      (wrapped as { wrapped?: boolean }).wrapped = true;
      NodeHttpHandler.prototype.handle = wrapped;
    }
  }
  const made: Array<[AbortSignal, string]> = [];
  const orig = AbortSignal.timeout;
  AbortSignal.timeout = (ms: number) => {
    const sig = orig(ms);
    made.push([sig, `${ms} ${(new Error().stack ?? "").split("\n").slice(2, 8).join(" | ")}`]);
    return sig;
  };
  const record = await world.run(() => runOne(new ChaosApi(stack.apiUrl), schedule)).catch((e) => {
    const hit = made.find(([sig]) => sig.reason === e);
    console.log("IN FLIGHT", [...inflight.values()].join("\n"));
    console.log("FAILED WITH", String(e), "signal made at", hit?.[1] ?? "(unknown)");
    process.exit(8);
  });
  await world.run(() => stack.stop());
  world.uninstall();
  const h = createHash("sha256").update(JSON.stringify(record.history)).digest("hex").slice(0, 12);
  if (process.env.DUMP) writeFileSync(`/tmp/h-${process.env.DUMP}-${from + i}.json`, JSON.stringify(record.history, null, 1));
  console.log(`#${from + i} ${record.violations.length}v start ${t1 - t0} ms run ${realNow() - t1} ms hist ${h} ${JSON.stringify(record.violations).slice(0, 200)}`);
}
console.log(`total ${realNow() - t00} ms, ${(runs / ((realNow() - t00) / 60000)).toFixed(1)}/min`);
