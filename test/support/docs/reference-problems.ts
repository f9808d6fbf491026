/**
 * Holds a page's references to the repository: every script it names is a script, every path it names is there,
 * every relative link resolves to a file and, for a page, to one of its headings.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import { anchorsOf, referencesIn } from "./markdown-references";

/** The README's line budget: a page a newcomer reads in five minutes. */
export const README_LINE_BUDGET = 200;

/** What the checks need to know of the repository, so that a test can hand in a small one of its own. */
export interface Repository {
  /** The scripts of the root package.json, or of the workspace at that folder (or of that package name). */
  scripts(workspace?: string): Set<string>;
  /** Whether the path (relative to the root; `*` allowed in its last part) names at least one file or folder. */
  exists(path: string): boolean;
  /** A page's text, by its path relative to the root, or undefined when there is none. */
  read(path: string): string | undefined;
}

const matches = (pattern: string, name: string) =>
  new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", ".*")}$`).test(name);

/** The repository on disk at `root`. */
export function repositoryAt(root: string): Repository {
  const json = (dir: string) => JSON.parse(readFileSync(join(root, dir, "package.json"), "utf8"));
  const workspaceDir = (w: string) =>
    existsSync(join(root, w, "package.json"))
      ? w
      : readdirSync(join(root, "packages"))
          .map((d) => `packages/${d}`)
          .find((d) => existsSync(join(root, d, "package.json")) && json(d).name === w);
  return {
    scripts: (workspace) => {
      const dir = workspace === undefined ? "." : workspaceDir(workspace);
      return new Set(dir === undefined ? [] : Object.keys(json(dir).scripts ?? {}));
    },
    exists: (path) => {
      const clean = path.replace(/\/$/, "");
      if (!clean.includes("*")) return existsSync(join(root, clean));
      const parent = dirname(clean);
      const last = clean.slice(parent.length + 1);
      return existsSync(join(root, parent)) && readdirSync(join(root, parent)).some((n) => matches(last, n));
    },
    read: (path) => (existsSync(join(root, path)) ? readFileSync(join(root, path), "utf8") : undefined),
  };
}

function scriptProblems(page: string, markdown: string, repo: Repository): string[] {
  return referencesIn(markdown)
    .scripts.filter(({ name, workspace }) => {
      const known = [...repo.scripts(workspace)];
      return !known.some((s) => (name.endsWith("*") ? s.startsWith(name.slice(0, -1)) : s === name));
    })
    .map(({ name, workspace }) =>
      workspace === undefined
        ? `${page}: npm run ${name} is not a script of package.json`
        : `${page}: npm run ${name} is not a script of the workspace ${workspace}`,
    );
}

function linkProblem(page: string, link: string, repo: Repository): string | undefined {
  const [file = "", anchor] = link.split("#");
  const target = file === "" ? page : normalize(join(dirname(page), decodeURI(file)));
  if (target.startsWith("..") || !repo.exists(target)) return `${page}: the link ${link} names no file`;
  if (anchor === undefined || !target.endsWith(".md")) return undefined;
  return anchorsOf(repo.read(target) ?? "").has(anchor)
    ? undefined
    : `${page}: the link ${link} names no heading of ${relative(".", target)}`;
}

/** Every reference of the page (its path relative to the root) that the repository does not hold. */
export function referenceProblems(page: string, markdown: string, repo: Repository): string[] {
  const { paths, links } = referencesIn(markdown);
  return [
    ...scriptProblems(page, markdown, repo),
    ...paths.filter((p) => !repo.exists(p)).map((p) => `${page}: ${p} does not exist`),
    ...links.map((l) => linkProblem(page, l, repo)).filter((p): p is string => p !== undefined),
  ];
}

/** The README's lines over its budget, as a problem, or none. */
export function readmeBudgetProblems(readme: string, budget = README_LINE_BUDGET): string[] {
  const lines = readme.endsWith("\n") ? readme.split("\n").length - 1 : readme.split("\n").length;
  return lines <= budget ? [] : [`README.md has ${lines} lines, over its budget of ${budget}`];
}
