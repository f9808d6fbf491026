import { chaosEnv } from "../../../scripts/lib/chaos/chaos-stack";
import { useLocalStack } from "../../support/local-stack";
import { runScript } from "../../support/run-script";
import { failoverMidPass } from "./failover-mid-pass";

/**
 * The operator's `npm run resolve-unknowns` in the primary while a failover comes and goes (failover-mid-pass.ts).
 * One trace per file and stack: the script runs in a process of its own, whose clock the stack's offset does not
 * move, so nothing here may move the clock, and no row another trace left may come before K1 in the pass.
 */
export function useScriptMidPass() {
  Object.assign(process.env, chaosEnv());
  const stack = useLocalStack({ standby: true, replicationLagMs: 200, resolverEveryMs: 0, sweepsEveryMs: 0 });
  return (env: NodeJS.ProcessEnv = {}) =>
    failoverMidPass(stack(), () => runScript("scripts/resolve-unknowns.ts", ["--env"], env));
}
