/**
 * The docs stay true: every `npm run` script, repository path and relative link that README.md and docs/*.md name
 * exists, and the README keeps to its line budget. Each check is also broken on purpose over a small page.
 */
import { readdirSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { anchorsOf, referencesIn } from "../support/docs/markdown-references";
import {
  README_LINE_BUDGET,
  type Repository,
  readmeBudgetProblems,
  referenceProblems,
  repositoryAt,
} from "../support/docs/reference-problems";

const root = resolve(import.meta.dirname, "../..");
const repo = repositoryAt(root);
const pages = [
  "README.md",
  ...readdirSync(resolve(root, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`),
];
const text = (page: string) => readFileSync(resolve(root, page), "utf8");

describe("the docs as they are", () => {
  it.each(pages)("%s names only scripts, paths and links that exist", (page) => {
    // act
    const problems = referenceProblems(page, text(page), repo);
    // assess
    expect(problems).toEqual([]);
  });

  it(`keeps the README within ${README_LINE_BUDGET} lines`, () => {
    // act
    const problems = readmeBudgetProblems(text("README.md"));
    // assess
    expect(problems).toEqual([]);
  });

  it("gives every page a line saying who it is for, right under its title", () => {
    // act
    const without = pages.filter((p) => p.startsWith("docs/") && !/^# .+\n\n_?For /.test(text(p)));
    // assess
    expect(without).toEqual([]);
  });
});

/** A repository of two pages and two scripts, to break on purpose. */
const small: Repository = {
  scripts: (workspace) =>
    new Set(workspace === undefined ? ["start", "test", "chaos", "bench:cost"] : ["build"]),
  exists: (path) =>
    [
      "docs/design.md",
      "docs/console.png",
      "packages/core",
      "packages/psp",
      "packages/core/src/claim/claim-store.ts",
    ].includes(path.replace(/\/$/, "")),
  read: (path) =>
    path === "docs/design.md" ? "# Design\n\n## The claim\n\n```sh\n# not a heading\n```\n" : undefined,
};

describe("the checks can fail", () => {
  it("pass a page whose every reference exists", () => {
    // prepare
    const page = [
      "Run `npm start`, `npm test`, `npm run chaos -- --runs 200` and `npm run bench:*`.",
      "The claim is `packages/core/src/claim/claim-store.ts`, in `packages/core/`; see",
      "[the claim](docs/design.md#the-claim), ![console](docs/console.png) and <http://127.0.0.1:3000/_local/docs>.",
      "A family of files is no path to check: `test/regions/<name>.test.ts`.",
    ].join("\n");
    // act
    const problems = referenceProblems("README.md", page, small);
    // assess
    expect(problems).toEqual([]);
  });

  it("find a missing script, a missing path, a link to no file and a link to no heading", () => {
    // prepare
    const page = [
      "Run `npm run no-such-script` and `npm run build -w packages/psp` and `npm run lint -w packages/psp`.",
      "It lives in `packages/core/src/claim/gone.ts`.",
      "See [a page](no-such-page.md), [a section](design.md#no-such-section) and [a comment](design.md#not-a-heading).",
    ].join("\n");
    // act
    const problems = referenceProblems("docs/guarantees.md", page, small);
    // assess
    expect(problems).toEqual([
      "docs/guarantees.md: npm run no-such-script is not a script of package.json",
      "docs/guarantees.md: npm run lint is not a script of the workspace packages/psp",
      "docs/guarantees.md: packages/core/src/claim/gone.ts does not exist",
      "docs/guarantees.md: the link no-such-page.md names no file",
      "docs/guarantees.md: the link design.md#no-such-section names no heading of docs/design.md",
      "docs/guarantees.md: the link design.md#not-a-heading names no heading of docs/design.md",
    ]);
  });

  it("find a README one line over its budget, and pass one at it", () => {
    // prepare
    const at = "line\n".repeat(README_LINE_BUDGET);
    const over = `${at}one more\n`;
    // act
    const found = [readmeBudgetProblems(at), readmeBudgetProblems(over)];
    // assess
    expect(found[0]).toEqual([]);
    expect(found[1]).toEqual([
      `README.md has ${README_LINE_BUDGET + 1} lines, over its budget of ${README_LINE_BUDGET}`,
    ]);
  });

  it("read headings as GitHub anchors them, repeats numbered, code blocks skipped", () => {
    // prepare
    const page =
      "# Runbook and on call\n\n## How POST /payments stays one charge\n\n## Notes\n\n## Notes\n\n```sh\n# pay\n```\n";
    // act
    const anchors = anchorsOf(page);
    const links = referencesIn("[a](#notes-1) [b](https://example.com/docs/x.md) [c](../test/x.ts)").links;
    // assess
    expect([...anchors]).toEqual([
      "runbook-and-on-call",
      "how-post-payments-stays-one-charge",
      "notes",
      "notes-1",
    ]);
    expect(links).toEqual(["#notes-1", "../test/x.ts"]);
  });
});
