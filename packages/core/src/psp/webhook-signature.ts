import { createHmac, timingSafeEqual } from "node:crypto";

/** The outcome of checking a `Psp-Signature` header. */
export type SignatureCheck = { ok: true } | { ok: false; reason: string };

function hmacHex(secret: string, rawBody: string, unixSeconds: number): string {
  return createHmac("sha256", secret).update(`${unixSeconds}.${rawBody}`).digest("hex");
}

/** Signs a webhook body the way the PSP does: `t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export function signWebhook(secret: string, rawBody: string, unixSeconds: number): string {
  return `t=${unixSeconds},v1=${hmacHex(secret, rawBody, unixSeconds)}`;
}

function parseHeader(header: string): { t: number; v1: string[] } | undefined {
  let t: number | undefined;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (name === "t" && /^\d+$/.test(value)) t = Number(value);
    else if (name === "v1") v1.push(value);
  }
  return t === undefined ? undefined : { t, v1 };
}

function sameHex(a: string, b: string): boolean {
  const ba = Buffer.from(a, "utf8");
  const bb = Buffer.from(b, "utf8");
  // timingSafeEqual throws on unequal lengths; the length of a hex digest is no secret.
  return ba.length === bb.length && timingSafeEqual(ba, bb);
}

/**
 * Checks a `Psp-Signature` header against the raw body; a timestamp more than `toleranceS` away from
 * `nowMs` is rejected so that a captured delivery cannot be replayed later.
 */
export function verifyWebhookSignature(
  secret: string,
  rawBody: string,
  header: string | undefined,
  nowMs: number,
  toleranceS = 300,
): SignatureCheck {
  if (header === undefined || header === "") return { ok: false, reason: "missing signature header" };
  const parsed = parseHeader(header);
  if (!parsed) return { ok: false, reason: "signature header has no timestamp" };
  if (parsed.v1.length === 0) return { ok: false, reason: "signature header has no v1 signature" };
  const expected = hmacHex(secret, rawBody, parsed.t);
  // Several v1 values are accepted because a provider rotating secrets sends one per secret.
  if (!parsed.v1.some((v) => sameHex(v, expected))) return { ok: false, reason: "signature mismatch" };
  if (Math.abs(nowMs / 1000 - parsed.t) > toleranceS) {
    return { ok: false, reason: `timestamp outside the ${toleranceS} s tolerance` };
  }
  return { ok: true };
}
