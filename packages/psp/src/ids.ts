import { randomBytes } from "node:crypto";

/** A Stripe-looking object id such as `ch_3f9a…`, random enough never to collide in a test run. */
export function newId(prefix: "ch" | "re" | "evt" | "pi" | "req" | "pm"): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}
