import { createHash } from "node:crypto";
import { Refusal } from "./payment-errors";

/** The meaning of a payment request: the fields the fingerprint covers (Part 2). */
export interface PaymentRequest {
  order_id: string;
  amount: number;
  currency: string;
  payment_method: string;
  merchant_id: string;
}

export const MAX_BODY_BYTES = 16 * 1024;
const KEY_RE = /^[A-Za-z0-9\-_.:]{1,255}$/;
// ISO 4217 codes in use; a well-formed but unknown code such as "XYZ" is refused.
const CURRENCIES = new Set(
  (
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD CAD " +
    "CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD GNF GTQ " +
    "GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT LAK LBP LKR " +
    "LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR NZD OMR PAB PEN " +
    "PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB " +
    "TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XOF XPF YER ZAR ZMW ZWL"
  ).split(" "),
);

/** Checks the Idempotency-Key header against the contract's alphabet and length. */
export function parseIdempotencyKey(raw: string | undefined): string {
  if (raw === undefined || raw === "")
    throw new Refusal("bad-request", "the Idempotency-Key header is required");
  if (raw.length > 255)
    throw new Refusal("bad-request", `Idempotency-Key is ${raw.length} characters; at most 255`);
  if (!KEY_RE.test(raw)) {
    throw new Refusal("bad-request", "Idempotency-Key may only hold A-Z a-z 0-9 - _ . : (no spaces)");
  }
  return raw;
}

/** Parses and validates a payment body; fields outside the five are ignored. */
export function parsePaymentBody(body: string | undefined): PaymentRequest {
  if (body !== undefined && Buffer.byteLength(body, "utf8") > MAX_BODY_BYTES) {
    throw new Refusal("too-large", `the body is over ${MAX_BODY_BYTES} bytes`);
  }
  let json: unknown;
  try {
    json = JSON.parse(body ?? "");
  } catch {
    throw new Refusal("bad-request", "the body must be a JSON object");
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) {
    throw new Refusal("bad-request", "the body must be a JSON object");
  }
  const o = json as Record<string, unknown>;
  return {
    order_id: text(o, "order_id", 128),
    amount: amount(o.amount),
    currency: currency(o.currency),
    payment_method: text(o, "payment_method", 128),
    merchant_id: merchant(o),
  };
}

function text(o: Record<string, unknown>, field: string, max: number): string {
  const v = o[field];
  if (typeof v !== "string" || v.length === 0)
    throw new Refusal("bad-request", `${field} must be a non-empty string`);
  if (v.length > max) throw new Refusal("bad-request", `${field} is longer than ${max} characters`);
  return v;
}

function merchant(o: Record<string, unknown>): string {
  const v = text(o, "merchant_id", 64);
  if (!/^[A-Za-z0-9_-]+$/.test(v))
    throw new Refusal("bad-request", "merchant_id may only hold A-Z a-z 0-9 _ -");
  return v;
}

function amount(v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v)) {
    throw new Refusal("bad-request", "amount must be an integer number of minor units (e.g. 3000 for 30.00)");
  }
  if (v < 1 || v > 99_999_999) throw new Refusal("bad-request", "amount must be between 1 and 99999999");
  return v;
}

function currency(v: unknown): string {
  if (typeof v !== "string" || !/^[A-Z]{3}$/.test(v)) {
    throw new Refusal("bad-request", "currency must be an ISO 4217 code in upper case, such as USD");
  }
  if (!CURRENCIES.has(v)) throw new Refusal("bad-request", `currency ${v} is not an ISO 4217 code`);
  return v;
}

/** A hash of the request's meaning in a fixed field order: reordering or extra fields don't change it. */
export function fingerprintOf(r: PaymentRequest): string {
  const canonical = [r.order_id, String(r.amount), r.currency, r.payment_method, r.merchant_id];
  return createHash("sha256").update(JSON.stringify(canonical)).digest("hex");
}
