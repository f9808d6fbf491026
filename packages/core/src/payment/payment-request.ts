import { createHash } from "node:crypto";
import {
  check,
  IdempotencyKey,
  MAX_BODY_BYTES,
  type PaymentRequest,
  PaymentRequest as PaymentRequestSchema,
} from "@eo/contract";
import type { z } from "zod";
import { Refusal } from "./payment-errors";
import { unsafeNoFingerprint } from "./payment-test-switches";

export type { PaymentRequest } from "@eo/contract";
export { MAX_BODY_BYTES } from "@eo/contract";

/** Checks a value against a contract schema, refusing it with the schema's own detail (400). */
export function checkOrRefuse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const checked = check(schema, value);
  if (!checked.ok) throw new Refusal("bad-request", checked.detail);
  return checked.value;
}

/** Checks the Idempotency-Key header against the contract's alphabet and length. */
export function parseIdempotencyKey(raw: string | undefined): string {
  return checkOrRefuse(IdempotencyKey, raw === "" ? undefined : raw);
}

/** Reads a JSON object body within the size limit; the shape is the schema's business. */
export function readJsonBody(body: string | undefined, example: string): unknown {
  if (body !== undefined && Buffer.byteLength(body, "utf8") > MAX_BODY_BYTES) {
    throw new Refusal("too-large", `the body is over ${MAX_BODY_BYTES} bytes`);
  }
  try {
    return JSON.parse(body ?? "");
  } catch {
    throw new Refusal("bad-request", `the body must be JSON such as ${example}`);
  }
}

/** Parses and validates a payment body; fields outside the five are ignored. */
export function parsePaymentBody(body: string | undefined): PaymentRequest {
  const json = readJsonBody(
    body,
    '{"order_id": "42", "amount": 3000, "currency": "USD", "payment_method": "pm_1", "merchant_id": "m1"}',
  );
  return checkOrRefuse(PaymentRequestSchema, json);
}

/** A hash of the request's meaning in a fixed field order: reordering or extra fields don't change it. */
export function fingerprintOf(r: PaymentRequest): string {
  const canonical = unsafeNoFingerprint()
    ? []
    : [r.order_id, String(r.amount), r.currency, r.payment_method, r.merchant_id];
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex");
}
