import { z } from "zod";

/** The longest Idempotency-Key the contract accepts. */
export const MAX_KEY_LENGTH = 255;
/** The body limit of every route that takes JSON from a client. */
export const MAX_BODY_BYTES = 16 * 1024;

const shown = (raw: unknown, max = 40): string => {
  if (raw === undefined) return "missing";
  const text = typeof raw === "string" ? raw : JSON.stringify(raw);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} characters)` : text;
};

/** The client's Idempotency-Key: born on the phone before the first send and reused on every retry (Part 2). */
export const IdempotencyKey = z
  .string({ error: "the Idempotency-Key header is required" })
  .min(1, { error: "the Idempotency-Key header is required" })
  .max(MAX_KEY_LENGTH, {
    error: (iss) => `Idempotency-Key is ${String(iss.input).length} characters; at most ${MAX_KEY_LENGTH}`,
  })
  .regex(/^[A-Za-z0-9\-_.:]+$/, {
    error:
      "Idempotency-Key may only hold A-Z a-z 0-9 - _ . : (no spaces), e.g. 0193a5e2-7c4b-7def-8a12-3b4c5d6e7f80",
  })
  .meta({
    id: "IdempotencyKey",
    description: "Made by the client before the first send and reused on every retry of the same payment.",
    example: "0193a5e2-7c4b-7def-8a12-3b4c5d6e7f80",
  });

/** A payment id as `POST /payments` answers it: derived from the key's scope, so stable across retries and Regions. */
export const PaymentId = z
  .string({ error: "the path needs a payment_id" })
  .min(1, { error: "the path needs a payment_id" })
  .regex(/^pay_[0-9a-f]{32}$/, {
    error: (iss) =>
      `payment_id must be "pay_" and 32 lowercase hex digits, as POST /payments returned it (e.g. pay_0123456789abcdef0123456789abcdef); got ${shown(iss.input)}`,
  })
  .meta({ id: "PaymentId", example: "pay_0123456789abcdef0123456789abcdef" });

/** A device id as `POST /devices` answers it. */
export const DeviceId = z
  .string({ error: "device_id must be dev_ followed by 24 hex digits (got missing)" })
  .regex(/^dev_[0-9a-f]{24}$/, {
    error: (iss) => `device_id must be dev_ followed by 24 hex digits (got ${shown(iss.input)})`,
  })
  .meta({ id: "DeviceId", example: "dev_0123456789abcdef01234567" });

/** An integer amount in minor units (3000 is 30.00 USD). */
export const Amount = z
  .number({ error: "amount must be an integer number of minor units (e.g. 3000 for 30.00)" })
  .int({ error: "amount must be an integer number of minor units (e.g. 3000 for 30.00)" })
  .min(1, { error: "amount must be between 1 and 99999999" })
  .max(99_999_999, { error: "amount must be between 1 and 99999999" })
  .meta({ description: "Minor units: 3000 is 30.00 USD.", example: 3000 });

// The platform's ISO 4217 list (ICU), so a code that leaves use leaves with a Node upgrade, not a hand edit.
const CURRENCIES: ReadonlySet<string> = new Set(Intl.supportedValuesOf("currency"));

/** An ISO 4217 code in upper case; a well-formed but unknown code such as "XYZ" is refused. */
export const Currency = z
  .string({ error: "currency must be an ISO 4217 code in upper case, such as USD" })
  .regex(/^[A-Z]{3}$/, { error: "currency must be an ISO 4217 code in upper case, such as USD" })
  .refine((code) => CURRENCIES.has(code), {
    error: (iss) => `currency ${String(iss.input)} is not an ISO 4217 code`,
  })
  .meta({ description: "ISO 4217, upper case.", example: "USD" });

/** A non-empty string of at most `max` characters, named in its errors. */
export function text(field: string, max: number) {
  return z
    .string({ error: `${field} must be a non-empty string` })
    .min(1, { error: `${field} must be a non-empty string` })
    .max(max, { error: `${field} is longer than ${max} characters` });
}

/** A merchant id: it keys balance shards and totals, so a narrow alphabet. */
export const MerchantId = text("merchant_id", 64)
  .regex(/^[A-Za-z0-9_-]+$/, { error: "merchant_id may only hold A-Z a-z 0-9 _ -" })
  .meta({ example: "m1" });
