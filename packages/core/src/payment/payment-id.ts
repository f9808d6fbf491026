import { Refusal } from "./payment-errors";

const PAYMENT_ID_RE = /^pay_[0-9a-f]{32}$/;

/**
 * Checks a payment id from a path before it reaches a store: an id of another shape cannot name any
 * payment (ours are derived), and one longer than DynamoDB's key limit would fail as a 500.
 */
export function parsePaymentId(raw: string | undefined): string {
  if (raw === undefined || raw === "") throw new Refusal("bad-request", "the path needs a payment_id");
  if (!PAYMENT_ID_RE.test(raw)) {
    const shown = raw.length > 40 ? `${raw.slice(0, 40)}… (${raw.length} characters)` : raw;
    throw new Refusal(
      "bad-request",
      `payment_id must be "pay_" and 32 lowercase hex digits, as POST /payments returned it (e.g. pay_0123456789abcdef0123456789abcdef); got ${shown}`,
    );
  }
  return raw;
}
