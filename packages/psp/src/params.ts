import { RequestError } from "./http-io";

/** The parameters of `POST /v1/charges`; they alone make up the idempotency fingerprint. */
export interface ChargeParams {
  amount: number;
  currency: string;
  payment_method: string;
  reference: string;
}

/** The parameters of `POST /v1/refunds`. */
export interface RefundParams {
  charge: string;
  reference?: string;
}

function invalid(message: string, param: string): RequestError {
  return new RequestError(400, "invalid_request_error", message, { param });
}

function toAmount(value: unknown): number {
  // Form bodies carry every value as text, so "3000" and 3000 are the same amount.
  const n = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== "number" || !Number.isSafeInteger(n) || n <= 0) {
    throw invalid("amount must be a positive integer in minor units", "amount");
  }
  return n;
}

function toText(value: unknown, param: string): string {
  if (typeof value !== "string" || value === "") throw invalid(`${param} must be a non-empty string`, param);
  return value;
}

/** Validates a charge request; unknown fields are ignored and do not change the fingerprint. */
export function parseChargeParams(raw: Record<string, unknown>): ChargeParams {
  const amount = toAmount(raw.amount);
  const currency = toText(raw.currency, "currency");
  if (!/^[A-Za-z]{3}$/.test(currency)) throw invalid("currency must be a three-letter ISO code", "currency");
  return {
    amount,
    currency,
    payment_method: toText(raw.payment_method, "payment_method"),
    reference: toText(raw.reference, "reference"),
  };
}

/** Validates a refund request. */
export function parseRefundParams(raw: Record<string, unknown>): RefundParams {
  const charge = toText(raw.charge, "charge");
  if (raw.reference === undefined) return { charge };
  return { charge, reference: toText(raw.reference, "reference") };
}
