import { ConfigError, missingEnv } from "@eo/core";

/** What an operator script needs from its environment before it touches anything. */
export interface ScriptEnv {
  /** Variables that must be set (the script guesses no Region, table or queue). */
  required: readonly string[];
  /** Checks of values that are set, e.g. strict switches; each throws a ConfigError to refuse. */
  checks?: ReadonlyArray<(env: NodeJS.ProcessEnv) => unknown>;
}

/**
 * The reason to refuse, or undefined when the environment is complete: every missing variable at once, so
 * that the operator fixes them in one go, then the first odd value.
 */
export function refusalOf(spec: ScriptEnv, env: NodeJS.ProcessEnv = process.env): string | undefined {
  const missing = missingEnv(env, spec.required);
  if (missing.length > 0) {
    const verb = missing.length === 1 ? "is" : "are";
    return `refused: ${missing.join(", ")} ${verb} not set, and this script assumes no Region, table or queue`;
  }
  for (const check of spec.checks ?? []) {
    try {
      check(env);
    } catch (err) {
      if (err instanceof ConfigError) return `refused: ${err.message}`;
      throw err;
    }
  }
  return undefined;
}
