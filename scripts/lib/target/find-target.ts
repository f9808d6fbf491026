import { localTarget } from "./local-target";
import { outputsFileTarget, stageTarget } from "./stage-target";
import type { Target } from "./target";
import type { TargetChoice } from "./target-args";

/**
 * The target a choice names: the running local stack (refused unless it answers on its port), a stage's outputs,
 * or an outputs file given alone. Undefined for the script's own explicit way, which the script reads itself.
 * Throws a TargetError (exit 2) for anything it cannot find.
 */
export async function findTarget(
  choice: TargetChoice,
  env: NodeJS.ProcessEnv = process.env,
): Promise<Target | undefined> {
  if (choice.kind === "local") return localTarget(env);
  if (choice.kind === "stage") return stageTarget(choice.stage, choice.outputs);
  return choice.outputs !== undefined ? outputsFileTarget(choice.outputs) : undefined;
}
