import { PaymentId } from "@eo/contract";
import { checkOrRefuse } from "./payment-request";

/**
 * Checks a payment id from a path before it reaches a store: an id of another shape cannot name any
 * payment (ours are derived), and one longer than DynamoDB's key limit would fail as a 500.
 */
export function parsePaymentId(raw: string | undefined): string {
  return checkOrRefuse(PaymentId, raw === "" ? undefined : raw);
}
