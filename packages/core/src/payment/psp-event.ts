import { type PspEvent, PspEvent as PspEventSchema } from "@eo/contract";
import { Refusal } from "./payment-errors";
import { checkOrRefuse } from "./payment-request";

export type { PspEvent } from "@eo/contract";

/** Parses an event body, refusing anything that is not the contract's shape, field by field. */
export function parsePspEvent(raw: string): PspEvent {
  let e: unknown;
  try {
    e = JSON.parse(raw);
  } catch {
    throw new Refusal("bad-request", "the webhook body is not JSON");
  }
  return checkOrRefuse(PspEventSchema, e);
}
