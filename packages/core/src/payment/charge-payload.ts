import type { PaymentRequest } from "./payment-request";

/** What the claimed work receives: JSON only, because Powertools hashes and stores it. */
export interface ChargePayload {
  scope: string;
  fingerprint: string;
  payment_id: string;
  caller: string;
  key: string;
  request: PaymentRequest;
  email?: string;
  deadline_at: number;
}
