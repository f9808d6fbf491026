import { RequestError } from "../http-io";

/** A value of a form body once its bracketed keys are nested: text, a list, or a map. */
export type FormValue = string | FormValue[] | FormMap;
/** A nested form body such as `{metadata: {payment_id: "pay_1"}, expand: ["latest_charge"]}`. */
export interface FormMap {
  [key: string]: FormValue;
}

/** Splits `a[b][0]` into `["a", "b", "0"]`; `[]` becomes "" (append). */
function pathOf(key: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match?.[1]) throw new RequestError(400, "invalid_request_error", `Invalid parameter name: ${key}`);
  const rest = [...(match[2] ?? "").matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1] ?? "");
  return [match[1], ...rest];
}

function place(root: FormMap, path: string[], value: string, key: string): void {
  let node = root;
  for (let i = 0; i < path.length - 1; i++) {
    const name = (path[i] as string) || String(Object.keys(node).length);
    const next = node[name] ?? {};
    if (typeof next !== "object" || Array.isArray(next)) {
      throw new RequestError(400, "invalid_request_error", `Invalid parameter: ${key}`, { param: key });
    }
    node[name] = next;
    node = next;
  }
  const last = (path[path.length - 1] as string) || String(Object.keys(node).length);
  node[last] = value;
}

// Maps keyed 0..n-1 were lists (`expand[0]`, `payment_method_types[]`); keys are sorted so that a
// fingerprint does not depend on the order the client wrote its fields in.
function settle(value: FormValue): FormValue {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const keys = Object.keys(value).sort();
  const indices = keys.map((k) => (/^\d+$/.test(k) ? Number(k) : -1)).sort((a, b) => a - b);
  if (keys.length > 0 && indices.every((n, i) => n === i)) {
    return indices.map((n) => settle(value[String(n)] as FormValue));
  }
  return Object.fromEntries(keys.map((k) => [k, settle(value[k] as FormValue)]));
}

/** Nests Stripe's bracketed form keys (`metadata[payment_id]=…`, `expand[0]=…`, `created[gte]=…`). */
export function nestForm(entries: Iterable<[string, unknown]>): FormMap {
  const root: FormMap = {};
  for (const [key, value] of entries) place(root, pathOf(key), String(value), key);
  return settle(root) as FormMap;
}

/** A text field of a nested form, or undefined when absent or not text. */
export function textOf(form: FormMap, name: string): string | undefined {
  const value = form[name];
  return typeof value === "string" ? value : undefined;
}

/** The `expand` list of a request, whichever way it was written. */
export function expandOf(form: FormMap): string[] {
  const value = form.expand;
  if (typeof value === "string") return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** A flat map of text values (Stripe's metadata), or an error naming the parameter. */
export function metadataOf(form: FormMap): Record<string, string> {
  const value = form.metadata ?? {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new RequestError(400, "invalid_request_error", "Invalid object", {
      code: "parameter_invalid_string",
      param: "metadata",
    });
  }
  const entries = Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string");
  return Object.fromEntries(entries);
}
