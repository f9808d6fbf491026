import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { needsTwoRegions, type Schedule } from "../../../scripts/lib/chaos/schedule";

/** A schedule a run once found violating, kept with why, so that the fix stays fixed. */
export interface KeptRegression {
  name: string;
  why: string;
  schedule: Schedule;
}

/** The kept schedules that need one Region, or two. */
export function keptRegressions(regions: 1 | 2): KeptRegression[] {
  const dir = join(__dirname, "..", "regressions");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .map((f) => ({ name: f.replace(/\.json$/, ""), ...JSON.parse(readFileSync(join(dir, f), "utf8")) }))
    .filter((r: KeptRegression) => (needsTwoRegions(r.schedule) ? 2 : 1) === regions);
}
