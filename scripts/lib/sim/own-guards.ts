import { switchesOf, unsafeGuards } from "../chaos/chaos-settings";
import { useChaosEnv } from "./play-in-world";
import { readReplayFile, replayOne } from "./replay-file";
import type { SimSettings } from "./sim-settings";

/** One file's outcome with its own guard taken away. */
interface OwnGuardOutcome {
  path: string;
  guard?: string;
  checks: string[];
}

/**
 * `--replay-file … --unsafe-own-guard`: plays each file in a world of its own with the guard the file names (its
 * `guard` field) taken away in that world alone, and says which were caught. The worlds play one after another,
 * each awaited to its stack's stop, so a switch set for one never reaches another. 0 when every file naming a guard
 * was caught, 1 when one was not (or none names a guard).
 */
export async function replayOwnGuards(s: SimSettings, log: (line: string) => void): Promise<number> {
  useChaosEnv({});
  const outcomes: OwnGuardOutcome[] = [];
  for (const path of s.replayFiles) {
    const guard = readReplayFile(path).guard;
    if (guard === undefined || !(guard in unsafeGuards())) {
      outcomes.push({ path, guard, checks: [] });
      continue;
    }
    const { env, client } = switchesOf([guard]);
    log(`\n${path}: its guard ${guard} taken away`);
    const violations = await replayOne(
      s,
      { client, path, around: (play) => withSwitches(env, play), quiet: true },
      log,
    );
    outcomes.push({ path, guard, checks: [...new Set(violations.map((v) => v.check))] });
  }
  return verdict(outcomes, log);
}

/**
 * Runs `fn` with these server switches set in this process's environment, and puts back what was there after, so
 * that they reach one world only: its stack copies the environment for the standby when it starts, the primary's
 * code reads the process's own, and every switch is read on each call, never kept.
 */
async function withSwitches<T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const before = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
  Object.assign(process.env, env);
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(before)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}

/** Prints one line per file and the count; 0 when every file naming a guard was caught. */
function verdict(outcomes: OwnGuardOutcome[], log: (line: string) => void): number {
  // A file naming a guard this version does not know counts as not caught: a renamed guard must not pass unseen.
  const named = outcomes.filter((o) => o.guard !== undefined);
  const caught = named.filter((o) => o.checks.length > 0);
  log("\neach file with its own guard taken away:");
  for (const o of outcomes) {
    if (o.guard === undefined) log(`  not played  ${o.path}: names no guard`);
    else if (!(o.guard in unsafeGuards())) log(`  NOT CAUGHT  ${o.path}: names an unknown guard ${o.guard}`);
    else if (o.checks.length > 0) log(`  caught      ${o.path} without ${o.guard}: ${o.checks.join(", ")}`);
    else log(`  NOT CAUGHT  ${o.path} without ${o.guard}: no violation`);
  }
  const unnamed = outcomes.length - named.length;
  log(
    `\n${named.length} files played with their guards removed, ${caught.length} caught${unnamed > 0 ? ` (${unnamed} naming no guard not played)` : ""}`,
  );
  return named.length > 0 && caught.length === named.length ? 0 : 1;
}
