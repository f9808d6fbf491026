import { actWindowMs, loadTunables } from "@eo/core";
import { LOCAL_FAILOVER_SETTINGS } from "../../../packages/local/src/region/local-sides";
import type { Target } from "../target/target";

/** Lambda's longest timeout: what an act window must assume when the stage does not say its own. */
const LAMBDA_MAX_TIMEOUT_MS = 900_000;

/**
 * The act window the failover waits out, from the deployment: a stage's outputs carry the longest timeout of every
 * function that acts on the authority (stacks/act-window.ts), which the operator's environment cannot know. A stage
 * deployed before its outputs carried it is assumed at Lambda's 900 s maximum, said in `note`, never the 30 s default.
 */
export function deployedActWindow(
  t: Target,
  env: NodeJS.ProcessEnv = process.env,
): { ms: number; note?: string } {
  if (t.local) return { ms: LOCAL_FAILOVER_SETTINGS.actWindowMs };
  const deployed = t.tunables.FUNCTION_TIMEOUT_MS;
  const known = deployed !== undefined && Number(deployed) > 0;
  const tunables = loadTunables({
    ...env,
    ...t.tunables,
    FUNCTION_TIMEOUT_MS: known ? deployed : String(LAMBDA_MAX_TIMEOUT_MS),
  });
  return {
    ms: actWindowMs(tunables),
    ...(known
      ? {}
      : {
          note: `the stage's outputs do not name its longest function timeout (deployed by an older version): the act window assumes Lambda's ${LAMBDA_MAX_TIMEOUT_MS / 1000} s; redeploy to wait only as long as the stage needs`,
        }),
  };
}
