/** A small IAM evaluator for identity policies: enough to answer "may this role do X on Y?" offline. */

/** An IAM policy statement as rendered in a policy document. */
export interface PolicyStatement {
  Effect: string;
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: unknown;
}

/** An IAM policy document. */
export interface PolicyDocument {
  Version?: string;
  Statement: PolicyStatement | PolicyStatement[];
}

const list = (v: string | string[] | undefined): string[] =>
  v === undefined ? [] : Array.isArray(v) ? v : [v];

function glob(pattern: string, value: string, ignoreCase: boolean): boolean {
  const source = pattern
    .split("")
    .map((ch) => (ch === "*" ? ".*" : ch === "?" ? "." : ch.replace(/[.+^${}()|[\]\\/]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, ignoreCase ? "i" : "").test(value);
}

function statementMatches(st: PolicyStatement, action: string, resource: string): boolean {
  const actionOk =
    st.NotAction !== undefined
      ? !list(st.NotAction).some((p) => glob(p, action, true))
      : list(st.Action).some((p) => glob(p, action, true));
  if (!actionOk) return false;
  return st.NotResource !== undefined
    ? !list(st.NotResource).some((p) => glob(p, resource, false))
    : list(st.Resource).some((p) => glob(p, resource, false));
}

/**
 * Whether the policies allow `action` on `resource`: an explicit Deny wins, otherwise any matching Allow.
 * Conditions are ignored, so a conditional Allow counts as an Allow (the safe side for "must not" checks).
 */
export function isAllowed(policies: PolicyDocument[], action: string, resource: string): boolean {
  let allowed = false;
  for (const doc of policies) {
    const statements = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
    for (const st of statements) {
      if (!statementMatches(st, action, resource)) continue;
      if (st.Effect === "Deny") return false;
      if (st.Effect === "Allow") allowed = true;
    }
  }
  return allowed;
}

/** Every resource pattern the policies name in an Allow statement. */
export function allowedResources(policies: PolicyDocument[]): string[] {
  const out: string[] = [];
  for (const doc of policies) {
    const statements = Array.isArray(doc.Statement) ? doc.Statement : [doc.Statement];
    for (const st of statements) if (st.Effect === "Allow") out.push(...list(st.Resource));
  }
  return out;
}
