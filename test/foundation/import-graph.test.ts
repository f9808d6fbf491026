import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importGraphProblems, REPO_ROOTS, REPO_RULES } from "./support/import-graph";

const repo = join(import.meta.dirname, "../..");

/** Writes a small tree of TypeScript files under a fresh temporary folder. */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "import-graph-"));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const made: string[] = [];
afterAll(() => {
  for (const root of made) rmSync(root, { recursive: true, force: true });
});

describe("the import graph", () => {
  it("has no circle in the packages, the stacks or the scripts, and no package imports from scripts/", async () => {
    const problems = await importGraphProblems(repo, REPO_ROOTS, REPO_RULES);

    expect(problems).toEqual([]);
  });

  it("names a circle, even of types only, and a package importing from scripts/, when a tree has them", async () => {
    const root = tree({
      "packages/core/src/take.ts": 'import { guard } from "./guard";\nexport const take = () => guard;\n',
      "packages/core/src/guard.ts":
        'import type { Take } from "./take-type";\nexport const guard = (t?: Take) => t;\n',
      "packages/core/src/take-type.ts":
        'import type { take } from "./take";\nexport type Take = typeof take;\n',
      "packages/local/src/drill.ts":
        'import { run } from "../../../scripts/lib/run";\nexport const drill = run;\n',
      "scripts/lib/run.ts": "export const run = 1;\n",
      "stacks/region.ts": "export const region = 1;\n",
    });
    made.push(root);

    const problems = await importGraphProblems(root, REPO_ROOTS, REPO_RULES);

    expect(problems).toEqual([
      "circle: packages/core/src/guard.ts → packages/core/src/take-type.ts → packages/core/src/take.ts → packages/core/src/guard.ts",
      "no-packages-to-scripts: packages/local/src/drill.ts → scripts/lib/run.ts",
    ]);
  });
});
