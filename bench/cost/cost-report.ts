import { noCost, type StepCost } from "./cost-meter";
import { STEPS } from "./payment-steps";

/** us-east-1 on-demand prices (USD per million request units); replicated writes cost what writes cost. */
export const PRICES = { write: 0.625, read: 0.125 };

/** The sum of steps' costs. */
export function totalOf(steps: Map<string, StepCost>): StepCost {
  const t = noCost();
  for (const s of steps.values()) for (const k of Object.keys(t) as Array<keyof StepCost>) t[k] += s[k];
  return t;
}

/** Each step's cost divided by `n` (the mean of n payments). */
export function meanOf(steps: Map<string, StepCost>, n: number): Map<string, StepCost> {
  return new Map(
    [...steps].map(([name, s]) => [
      name,
      Object.fromEntries(Object.entries(s).map(([k, v]) => [k, v / n])) as unknown as StepCost,
    ]),
  );
}

/** One Region's write units, index writes included: what the targets count. */
export const writesOf = (c: StepCost) => c.writeUnits + c.indexUnits;

/** Two Regions' write units: the Region's own, plus a replicated write and an index update per replica. */
export const twoRegionWritesOf = (c: StepCost) => writesOf(c) + c.replicaUnits + c.replicaIndexUnits;

const f = (x: number) => (Number.isInteger(x) ? String(x) : x.toFixed(2)).padStart(7);

/** A path's table: one line per step, then the synchronous request and the whole life. */
export function pathTable(title: string, sync: StepCost, life: Map<string, StepCost>): string {
  const head = `${title}\n  ${"step".padEnd(22)}  calls      WU  idx WU      RU  | 2 Regions WU`;
  const line = (name: string, c: StepCost) =>
    `  ${name.padEnd(22)}${f(c.calls)} ${f(c.writeUnits)} ${f(c.indexUnits)} ${f(c.readUnits)}  | ${f(twoRegionWritesOf(c))}`;
  const rows = STEPS.filter((s) => life.has(s)).map((s) => line(s, life.get(s) as StepCost));
  return [head, ...rows, line("= the API request", sync), line("= the whole life", totalOf(life))].join("\n");
}

/** What `perDay` payments cost a month (30 days) at on-demand prices, in one Region and in two. */
export function monthlyCost(life: StepCost, perDay: number): { oneRegion: number; twoRegions: number } {
  const month = perDay * 30;
  const reads = (life.readUnits * month * PRICES.read) / 1e6;
  return {
    oneRegion: (writesOf(life) * month * PRICES.write) / 1e6 + reads,
    twoRegions: (twoRegionWritesOf(life) * month * PRICES.write) / 1e6 + reads,
  };
}
