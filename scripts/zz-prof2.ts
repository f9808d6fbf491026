import { playInWorld, useChaosEnv, warmUp } from "./lib/sim/play-in-world";
useChaosEnv({});
await warmUp(2);
const realNow = Date.now;
const t0 = realNow();
let v = 0;
const viol: string[] = [];
const n = Number(process.env.N ?? 8);
for (let i = 0; i < n; i++) {
  const r = await playInWorld({ seed: 9, index: i, regions: (i % 2 ? 2 : 1) as 1 | 2 });
  v += r.virtualMs;
  process.stdout.write(`#${i} ${r.virtualMs} ${JSON.stringify(r.record.timing)}\n`);
  viol.push(...r.record.violations.map((x) => `${i}:${x.check}`));
}
console.log(`${n} schedules`, realNow() - t0, "ms real", v, "ms virtual", "violations", viol.join(","));
