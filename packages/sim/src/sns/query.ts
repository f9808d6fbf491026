/** A form-encoded query request, as a tree: `A.entry.1.key=v` becomes `{ A: { entry: { 1: { key: "v" } } } }`. */
export type QueryNode = { [key: string]: QueryNode | string };

/** Parses an awsQuery body into its action and parameter tree. */
export function parseQuery(body: string): { action: string; params: QueryNode } {
  const form = new URLSearchParams(body);
  const params: QueryNode = {};
  for (const [key, value] of form) {
    const path = key.split(".");
    let node = params;
    for (const [i, part] of path.entries()) {
      if (i === path.length - 1) node[part] = value;
      else {
        const next = typeof node[part] === "object" ? node[part] : {};
        node[part] = next;
        node = next;
      }
    }
  }
  return { action: String(params.Action ?? ""), params };
}

/** A string parameter. */
export function text(node: QueryNode | string | undefined, key: string): string | undefined {
  if (typeof node !== "object") return undefined;
  const v = node[key];
  return typeof v === "string" ? v : undefined;
}

/** A child node (an object parameter), if present. */
export function child(node: QueryNode | string | undefined, key: string): QueryNode | undefined {
  if (typeof node !== "object") return undefined;
  const v = node[key];
  return typeof v === "object" ? v : undefined;
}

/** A list parameter (`X.member.N`), in the order of N. */
export function list(node: QueryNode | undefined, key: string): QueryNode[] {
  const members = child(child(node, key), "member");
  if (!members) return [];
  return Object.keys(members)
    .sort((a, b) => Number(a) - Number(b))
    .map((k) => members[k])
    .filter((v): v is QueryNode => typeof v === "object");
}

/** A map parameter (`X.entry.N.<k>` / `X.entry.N.<v>`), as a record of the value nodes. */
export function map(
  node: QueryNode | undefined,
  key: string,
  k = "key",
  v = "value",
): Record<string, QueryNode | string> {
  const entries = child(child(node, key), "entry");
  const out: Record<string, QueryNode | string> = {};
  if (!entries) return out;
  for (const n of Object.keys(entries).sort((a, b) => Number(a) - Number(b))) {
    const e = entries[n];
    const name = text(e, k);
    if (typeof e === "object" && name !== undefined && e[v] !== undefined)
      out[name] = e[v] as QueryNode | string;
  }
  return out;
}

/** A map of string values (`Attributes`). */
export function stringMap(node: QueryNode | undefined, key: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map(node, key))) if (typeof v === "string") out[k] = v;
  return out;
}

const escapes: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&apos;",
};

/** Escapes text for an XML element. */
export function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => escapes[c] as string);
}

/** XML for a value: strings as text, arrays as `<member>`s, objects as one element per defined key. */
export function xml(value: unknown): string {
  if (value === undefined || value === null) return "";
  if (typeof value === "string" || typeof value === "number" || typeof value === "boolean")
    return esc(String(value));
  if (Array.isArray(value)) return value.map((v) => `<member>${xml(v)}</member>`).join("");
  return Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `<${k}>${xml(v)}</${k}>`)
    .join("");
}

/** XML for a string map, as SNS writes `Attributes`. */
export function entriesXml(map: Record<string, string>): string {
  return Object.entries(map)
    .map(([k, v]) => `<entry><key>${esc(k)}</key><value>${esc(v)}</value></entry>`)
    .join("");
}
