import type { RegionRole } from "@eo/core";
import { TargetError } from "./target";

/** The `parseArgs` options every operator script takes to find its target. */
export const TARGET_OPTIONS = {
  local: { type: "boolean", default: false },
  stage: { type: "string" },
  outputs: { type: "string" },
} as const;

/** The `--region` option of the scripts that act on one Region. */
export const REGION_OPTION = { region: { type: "string" } } as const;

/** The outputs file `sst deploy` writes, read by `--stage` unless `--outputs` names another. */
export const DEFAULT_OUTPUTS = ".sst/outputs.json";

/** The usage lines every script prints for its target options. */
export const TARGET_USAGE = `  --local              the running \`npm start\`, found by its ports: API_PORT (default 3000; the stack tells
                       where the rest is) and PSP_PORT (default 3001)
  --stage <stage>      the deployed stage, both Regions, from its outputs (${DEFAULT_OUTPUTS}, which \`sst deploy\`
                       writes; --outputs <file> for a copy); PSP secrets from \`npx sst shell --stage <stage> -- …\`
                       or PSP_URL and PSP_API_KEY`;

/** The usage line of `--region`, for the scripts that act on one Region. */
export const REGION_USAGE = `  --region <role>      primary or standby (default: the Region the authority names active now)`;

/**
 * The one refusal, word for word in every script, when the command does not say where to act (or says it twice).
 * A script never guesses: the wrong Region's queue or ledger is worse than no run.
 */
export const NO_TARGET =
  "refused: say where to act: --local (the running npm start) or --stage <stage> (the deployed stage's outputs), not both";

/** What the command line asks for. */
export type TargetChoice =
  | { kind: "local" }
  | { kind: "stage"; stage: string; outputs: string }
  /** The script's own explicit flags or environment (e.g. `--outputs <file>` alone, or `--env`). */
  | { kind: "explicit"; outputs?: string };

/**
 * Which target the flags name: exactly one of `--local`, `--stage <s>` or the script's explicit way (`explicit`
 * true when its own flags were given). Throws a TargetError with NO_TARGET otherwise.
 */
export function chooseTarget(
  values: { local?: boolean; stage?: string; outputs?: string },
  explicit = false,
): TargetChoice {
  const stage = values.stage?.trim();
  if (values.stage !== undefined && !stage) throw new TargetError(NO_TARGET);
  const given = [values.local === true, stage !== undefined, explicit].filter(Boolean).length;
  if (given !== 1) throw new TargetError(NO_TARGET);
  if (values.local) {
    if (values.outputs !== undefined)
      throw new TargetError("refused: --outputs goes with --stage, not --local");
    return { kind: "local" };
  }
  if (stage !== undefined) return { kind: "stage", stage, outputs: values.outputs ?? DEFAULT_OUTPUTS };
  return { kind: "explicit", ...(values.outputs !== undefined ? { outputs: values.outputs } : {}) };
}

/** The `--region` flag: a role, or undefined for "the active one"; anything else is refused. */
export function regionFlag(value: string | undefined): RegionRole | undefined {
  if (value === undefined) return undefined;
  if (value === "primary" || value === "standby") return value;
  throw new TargetError(`refused: --region takes primary or standby (got "${value}")`);
}
