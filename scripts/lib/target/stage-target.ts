import { readFileSync } from "node:fs";
import type { RegionRole } from "@eo/core";
import type { AuthorityTarget, RegionTarget, Target } from "./target";
import { TargetError } from "./target";

/** What each Region's entry of the stage outputs' `failover` holds (stacks/failover-outputs.ts writes it). */
const REGION_KEYS = [
  "region",
  "control",
  "claims",
  "ledger",
  "consumer",
  "eventsQueue",
  "eventsDlq",
  "resolver",
  "sweeps",
] as const;

/** Keys a script needs only for one command (it refuses without them), so older outputs still serve the rest. */
const OPTIONAL_REGION_KEYS = ["totals", "streamJobFailures"] as const;

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The target a stage's outputs describe (`failover`: the stage, its claim mode and tunables, each Region's tables,
 * queues and scheduled functions, and where the authority lives). Throws a TargetError naming the first thing
 * missing, so an outputs file from before this version says "deploy this version first" instead of failing later.
 */
export function parseStageOutputs(outputs: unknown, file: string): Target {
  const f = isObject(outputs) ? outputs.failover : undefined;
  const stale = (what: string) =>
    new TargetError(`refused: ${file} has no ${what} (deploy this version of the app to the stage first)`);
  if (!isObject(f)) throw stale("failover outputs");
  if (typeof f.stage !== "string") throw stale("failover.stage");
  if (f.claimMode !== "home" && f.claimMode !== "mrsc") throw stale("failover.claimMode");
  const region = (role: RegionRole): RegionTarget => {
    const r = f[role];
    for (const k of REGION_KEYS)
      if (!isObject(r) || typeof r[k] !== "string") throw stale(`failover.${role}.${k}`);
    const optional = Object.fromEntries(
      OPTIONAL_REGION_KEYS.filter((k) => typeof (r as Json)[k] === "string").map((k) => [
        k,
        (r as Json)[k] as string,
      ]),
    );
    return { role, ...(r as Record<(typeof REGION_KEYS)[number], string>), ...optional };
  };
  const a = f.authority;
  if (!isObject(a) || typeof a.table !== "string" || !Array.isArray(a.regions) || a.regions.length === 0)
    throw stale("failover.authority with a table and its Regions");
  if (a.mode !== "mrsc" && a.mode !== "single-region") throw stale("failover.authority.mode");
  const tunables = isObject(f.tunables) ? f.tunables : {};
  return {
    kind: "stage",
    where: `stage ${f.stage} (${file})`,
    stage: f.stage,
    claimMode: f.claimMode,
    regions: { primary: region("primary"), standby: region("standby") },
    authority: a as unknown as AuthorityTarget,
    tunables: Object.fromEntries(Object.entries(tunables).map(([k, v]) => [k, String(v)])),
  };
}

/** Reads an outputs file; a missing or unreadable file is a refusal that says where outputs come from. */
export function readOutputsFile(file: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new TargetError(
      `refused: no outputs file ${file} (\`npx sst deploy --stage <stage>\` writes .sst/outputs.json; --outputs <file> reads a copy)`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new TargetError(`refused: ${file} is not JSON`);
  }
}

/** `--stage <stage>`: the outputs file's target, refused unless the file is that stage's. */
export function stageTarget(stage: string, file: string): Target {
  const t = parseStageOutputs(readOutputsFile(file), file);
  if (t.stage !== stage) {
    throw new TargetError(
      `refused: ${file} holds the outputs of stage "${t.stage}", not "${stage}" (it is written by the last \`sst deploy\` from this checkout; --outputs <file> reads a copy of the right one)`,
    );
  }
  return t;
}

/** An outputs file given alone (`--outputs <file>`, failover's explicit way): its own stage, unchecked. */
export function outputsFileTarget(file: string): Target {
  return { ...parseStageOutputs(readOutputsFile(file), file), kind: "outputs-file" };
}
