/** A property broken on purpose in a capture, and what the invariant that holds it must then report. */
import type { Capture, CapturedResource } from "./capture";
import type { Expected, Invariant } from "./invariants";

/** One break-on-purpose case: the invariant must hold on the intact capture and report the broken one. */
export interface Mutation {
  what: string;
  invariant: Invariant;
  on: { scenario: { name: string }; expected: Expected };
  breakIt: (c: Capture) => void;
  expectViolation: RegExp;
}

/** The resource of a type and logical name in a capture (throws when absent, so a renamed resource is noticed). */
export function resourceOf(c: Capture, type: string, name: string): CapturedResource {
  const r = c.resources.find((x) => x.type === type && x.name === name);
  if (!r) throw new Error(`no ${type} ${name} in the capture`);
  return r;
}
