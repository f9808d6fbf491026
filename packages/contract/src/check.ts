import type { z } from "zod";

/** A value checked against a schema: the parsed value, or one sentence that says what to fix. */
export type Checked<T> = { ok: true; value: T } | { ok: false; detail: string };

/**
 * Checks a value against a contract schema. The detail is the first issue's message; the schemas word
 * their messages with the field, the rule and an example, and a message that does not name its field
 * gets the field's path in front.
 */
export function check<S extends z.ZodType>(schema: S, value: unknown): Checked<z.output<S>> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  const issue = result.error.issues[0];
  const path = issue?.path.map(String).join(".") ?? "";
  const message = issue?.message ?? "the request does not match the contract";
  const named = path === "" || message.includes(path) || message.includes(String(issue?.path.at(-1)));
  return { ok: false, detail: named ? message : `${path}: ${message}` };
}
