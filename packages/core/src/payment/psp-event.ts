import { Refusal } from "./payment-errors";

/** A PSP webhook event as the contract describes it. */
export interface PspEvent {
  id: string;
  type: "charge.succeeded" | "charge.failed" | "refund.succeeded";
  data: {
    charge: { id: string; idempotency_key: string; reference: string; decline_code?: string };
    refund?: { id: string };
  };
}

const TYPES = ["charge.succeeded", "charge.failed", "refund.succeeded"];
const ID_RE = /^[A-Za-z0-9_\-.:]{1,255}$/;

/** Parses an event body, refusing anything that is not the contract's shape, field by field. */
export function parsePspEvent(raw: string): PspEvent {
  let e: unknown;
  try {
    e = JSON.parse(raw);
  } catch {
    throw new Refusal("bad-request", "the webhook body is not JSON");
  }
  if (typeof e !== "object" || e === null || Array.isArray(e))
    throw new Refusal("bad-request", "the webhook body must be a JSON object (a PSP event)");
  const o = e as Record<string, unknown>;
  need(typeof o.id === "string" && ID_RE.test(o.id), 'id must be the PSP event id, e.g. "evt_123"');
  need(
    TYPES.includes(o.type as string),
    `type must be one of ${TYPES.join(", ")}; got ${JSON.stringify(o.type)}`,
  );
  const charge = (o.data as { charge?: unknown } | undefined)?.charge as Record<string, unknown> | undefined;
  need(typeof charge === "object" && charge !== null, "data.charge must be an object");
  const c = charge as Record<string, unknown>;
  need(typeof c.id === "string" && ID_RE.test(c.id), 'data.charge.id must be the charge id, e.g. "ch_123"');
  for (const f of ["idempotency_key", "reference"]) {
    const v = c[f];
    need(
      v === undefined || (typeof v === "string" && v.length <= 255),
      `data.charge.${f} must be a string of at most 255`,
    );
  }
  need(
    c.idempotency_key !== undefined || c.reference !== undefined,
    "data.charge needs idempotency_key or reference",
  );
  return o as unknown as PspEvent;
}

function need(ok: boolean, detail: string): void {
  if (!ok) throw new Refusal("bad-request", detail);
}
