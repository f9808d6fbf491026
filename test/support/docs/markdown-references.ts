/**
 * What a Markdown page names that must exist in the repository: the `npm run` scripts, the repository paths and the
 * relative links, and the anchors its own headings make (GitHub's rule), so that a test can hold the docs to the code.
 */

/** One `npm run <name>` a page names, with the workspace it is run in when written with `-w`. */
export interface NamedScript {
  name: string;
  workspace?: string;
}

/** Everything a page names, each kind apart. */
export interface MarkdownReferences {
  scripts: NamedScript[];
  paths: string[];
  links: string[];
}

// The top-level folders whose paths a page may name; anything else (a URL, `chaos-report/…`) is not ours to check.
const PATH = /(?<![\w./@-])((?:packages|test|scripts|stacks|docs|bench|\.ci)\/[\w.*/-]*)/g;
const SCRIPT = /npm run ([\w:.-]+\*?)(?:\s+(?:-w|--workspace)[ =]([\w./@-]*[\w@]))?/g;
const BARE = /npm (start|test)\b/g;
const LINK = /\]\(([^)\s]+)\)/g;

/** The page's text without its fenced code blocks, for headings (a `# comment` in a shell block is no heading). */
export function outsideFences(markdown: string): string[] {
  let fenced = false;
  return markdown.split("\n").filter((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else return !fenced;
    return false;
  });
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, each space a hyphen. */
export function slugOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, "")
    .replace(/\s/g, "-");
}

/** The anchors of a page's headings, with GitHub's -1, -2 … for repeats. */
export function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const line of outsideFences(markdown)) {
    const m = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m?.[1]) continue;
    const slug = slugOf(m[1]);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

// A path that goes on into a placeholder (`<stage>`, `{id}`, `…`) names a family of files, not one.
const templated = (text: string, end: number) => /^[<{…]/.test(text.slice(end));

/** The scripts, repository paths and relative links a page names. */
export function referencesIn(markdown: string): MarkdownReferences {
  const scripts: NamedScript[] = [...markdown.matchAll(SCRIPT)].map((m) => ({
    name: m[1] ?? "",
    ...(m[2] ? { workspace: m[2] } : {}),
  }));
  for (const m of markdown.matchAll(BARE)) scripts.push({ name: m[1] ?? "" });
  const paths = [...markdown.matchAll(PATH)]
    .filter((m) => !templated(markdown, (m.index ?? 0) + m[0].length))
    .map((m) => (m[1] ?? "").replace(/[.,:;]+$/, ""));
  const links = [...markdown.matchAll(LINK)].map((m) => m[1] ?? "").filter((l) => !/^[a-z]+:/i.test(l));
  return { scripts, paths: [...new Set(paths)], links: [...new Set(links)] };
}
