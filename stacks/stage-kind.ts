/**
 * Which stages are production. The stage named `production` is; any other stage is production only when the deployer
 * says so (STAGE_KIND=production). A name that looks like production but is not `production` (e.g. `prod`) is refused
 * until the deployer states its kind: deployed as a development stage, its tables would be deleted by `sst remove` and
 * its APNs platform would be the sandbox, which rejects production device tokens. Plain data: `app()` of
 * sst.config.ts, the stacks and vitest all import it.
 */

/** The stage whose name alone makes it production. */
export const PRODUCTION_STAGE = "production";

/** The words that make a stage name look like production, matched as whole words of letters. */
export const PRODUCTION_WORDS: readonly string[] = ["prod", "prd", "production", "live"];

/** What a deployer may state for a stage (env STAGE_KIND). */
export const STAGE_KINDS = ["production", "non-production"] as const;

/** The words of a stage name: its runs of letters, lower-cased (`prod-eu2` has `prod` and `eu`). */
export function stageWords(stage: string): string[] {
  return stage
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter((w) => w !== "");
}

/** The production word a stage name other than `production` carries, if any (`eu-prod` → `prod`). */
export function productionLookalike(stage: string): string | undefined {
  if (stage === PRODUCTION_STAGE) return undefined;
  return stageWords(stage).find((w) => PRODUCTION_WORDS.includes(w));
}

/**
 * Whether a stage is production: `production` always; otherwise what STAGE_KIND states; otherwise no, unless its name
 * looks like production, which is refused with the rule and both ways out.
 */
export function stageIsProduction(stage: string | undefined, env: NodeJS.ProcessEnv): boolean {
  const stated = env.STAGE_KIND || undefined;
  if (stated !== undefined && !(STAGE_KINDS as readonly string[]).includes(stated)) {
    throw new Error(`STAGE_KIND must be "production" or "non-production", not "${stated}"`);
  }
  if (stage === PRODUCTION_STAGE) {
    if (stated === "non-production")
      throw new Error(
        `The stage "${PRODUCTION_STAGE}" is always production: unset STAGE_KIND, or use another name`,
      );
    return true;
  }
  if (stated) return stated === "production";
  const word = stage === undefined ? undefined : productionLookalike(stage);
  if (word) {
    throw new Error(
      `The stage "${stage}" looks like production (the word "${word}") but is not named "${PRODUCTION_STAGE}", ` +
        "so its kind must be stated. Set STAGE_KIND=production to deploy it as production (APNs production " +
        "platform, tables retained on removal and deletion-protected, resources protected), or " +
        "STAGE_KIND=non-production for a removable stage with the APNs sandbox.",
    );
  }
  return false;
}
