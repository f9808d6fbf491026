import type { BrowserSources } from "../browser/find-browser";
import { BROWSER_NEEDS, browserProblem } from "./browser-requirement";
import { JAVA_NEEDS, javaProblem } from "./java-requirement";

/** Every system requirement of `npm test` that is not met here, each with what to install; empty when all are. */
export async function unmetRequirements(
  env: NodeJS.ProcessEnv = process.env,
  sources?: BrowserSources,
): Promise<string[]> {
  const unmet: string[] = [];
  const java = javaProblem(env);
  if (java) unmet.push(`${JAVA_NEEDS}\n  found: ${java}`);
  const { problem } = await browserProblem(env, sources);
  if (problem) unmet.push(`${BROWSER_NEEDS}\n  found: ${problem}`);
  return unmet;
}

/** The one message the test run stops with: every unmet requirement and how to meet it. */
export function requirementsMessage(unmet: string[]): string {
  const count = unmet.length === 1 ? "1 system requirement is" : `${unmet.length} system requirements are`;
  const items = unmet.map((u, i) => `${i + 1}. ${u.replaceAll("\n", "\n   ")}`);
  return [
    `npm test stopped before running any test: ${count} missing on this machine.`,
    "",
    ...items.flatMap((item) => [item, ""]),
    "Install what is listed, then run npm test again (README: Requirements).",
  ].join("\n");
}
