import { cruise, type ICruiseResult, type IForbiddenRuleType } from "dependency-cruiser";

/** The layering a tree keeps: folders with no import circle, and folders that must never import another. */
export interface ImportRules {
  noCircles: string[];
  noImports: { from: string; to: string }[];
}

/**
 * This repository's: no package, stack or script has an import circle, and no package reaches up into the
 * operator scripts (the scripts build on the packages, never the other way).
 */
export const REPO_RULES: ImportRules = {
  noCircles: ["packages", "stacks", "scripts"],
  noImports: [{ from: "packages", to: "scripts" }],
};

/** The folders the check reads: everything the rules speak of. */
export const REPO_ROOTS = ["packages", "stacks", "scripts"];

const under = (folders: string[]) =>
  `^(${folders.map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|")})/`;

function ruleSet(rules: ImportRules): IForbiddenRuleType[] {
  return [
    {
      name: "no-circular",
      severity: "error",
      from: { path: under(rules.noCircles) },
      to: { circular: true },
    },
    ...rules.noImports.map(
      ({ from, to }): IForbiddenRuleType => ({
        name: `no-${from}-to-${to}`.replace(/\W+/g, "-"),
        severity: "error",
        from: { path: under([from]) },
        to: { path: under([to]) },
      }),
    ),
  ];
}

/**
 * Cruises `roots` (folders under `baseDir`) with dependency-cruiser and answers every broken rule as one line,
 * each circle once. Type-only imports count: a circle of types still ties two files' changes together.
 */
export async function importGraphProblems(
  baseDir: string,
  roots: string[],
  rules: ImportRules,
): Promise<string[]> {
  const { output } = await cruise(roots, {
    baseDir,
    validate: true,
    ruleSet: { forbidden: ruleSet(rules) },
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
  });
  const result = output as ICruiseResult;
  const lines = (result.summary.violations ?? []).map((v) =>
    v.cycle && v.cycle.length > 0
      ? `circle: ${[v.from, ...v.cycle.map((c) => c.name)].join(" → ")}`
      : `${v.rule.name}: ${v.from} → ${v.to}`,
  );
  return [...new Set(lines.map(canonical))];
}

/** The same circle reported from each of its files reads the same: rotated to start at its least file. */
function canonical(line: string): string {
  if (!line.startsWith("circle: ")) return line;
  const files = line.slice("circle: ".length).split(" → ").slice(0, -1);
  const start = files.indexOf([...files].sort()[0] ?? "");
  const rotated = [...files.slice(start), ...files.slice(0, start)];
  return `circle: ${[...rotated, rotated[0]].join(" → ")}`;
}
