import type {
  CancelResult,
  PaymentDeclined,
  PaymentProcessing,
  PaymentSucceeded,
  PaymentView,
  Problem,
  ResolveResult,
} from "@eo/contract";

/** The last thing the client saw before it stopped retrying, for the app's log. */
export interface LastSeen {
  why: string;
  status?: number;
  problem?: Problem;
}

/** Why a call was refused; `client_bug` on the result says whether the app's code must change. */
export type RefusalReason =
  | "invalid-request"
  | "fingerprint-mismatch"
  | "rejected"
  | "not-found"
  | "refund-refused"
  | "no-key"
  | "journal-unavailable";

/** A definite "no" that retrying would not change: a 4xx (but 409 in-progress and 429) or a request the client would not send. */
export interface Refused {
  kind: "refused";
  reason: RefusalReason;
  client_bug: boolean;
  detail: string;
  attempts: number;
  order_id?: string;
  key?: string;
  payment_id?: string;
  status?: number;
  /** The server's problem as it came, for the log. */
  problem?: Problem;
  /** A body that is not a problem (API Gateway's 401 `{message}`, say). */
  raw?: unknown;
}

interface Keyed {
  order_id: string;
  key: string;
  attempts: number;
}

/** 201: charged (first answer or its replay), or resolve's SUCCEEDED for a key the server said was voided. */
export interface PaySucceeded extends Keyed {
  kind: "succeeded";
  payment_id: string;
  replayed: boolean;
  /** The 201's body; absent when the answer is resolve's (`resolved`), which names the payment only. */
  body?: PaymentSucceeded;
  /** Resolve's answer, when POST /payments said 409 key-voided and resolve found the key charged. */
  resolved?: ResolveResult;
}

/** 402: a definite decline, or resolve's FAILED for a key the server said was voided (then no decline code). */
export interface PayDeclined extends Keyed {
  kind: "declined";
  payment_id: string;
  decline_code?: string;
  body: PaymentDeclined;
  /** Resolve's answer, when POST /payments said 409 key-voided and resolve found the key declined. */
  resolved?: ResolveResult;
}

/** Not final when the horizon passed: the key is kept, and the app should call resolve() before another tap. */
export interface PayProcessing extends Keyed {
  kind: "processing";
  next: "resolve";
  payment_id?: string;
  body?: PaymentProcessing;
  last: LastSeen;
}

/**
 * 409 key-voided, and resolve (asked with the same key) said VOID: the key can never charge, so the next pay
 * makes a new key. A 409 that resolve answers otherwise is that answer (succeeded, declined, processing).
 */
export interface PayVoided extends Keyed {
  kind: "voided";
  next: "pay";
  status: 409;
  problem?: Problem;
  /** Resolve's VOID, which alone lets the app make a new key. */
  resolved: ResolveResult;
}

/** What pay() answers. */
export type PayResult = PaySucceeded | PayDeclined | PayProcessing | PayVoided | Refused;

/** What resolve() answers: the key's state; `voided` lets the app make a new key, `processing` keeps the old one. */
export type ResolveOutcome =
  | (Keyed & { kind: "succeeded"; payment_id?: string; body: ResolveResult })
  | (Keyed & { kind: "declined"; payment_id?: string; body: ResolveResult })
  | (Keyed & {
      kind: "processing";
      next: "resolve";
      payment_id?: string;
      body?: ResolveResult;
      last?: LastSeen;
    })
  | (Keyed & { kind: "voided"; next: "pay"; body: ResolveResult })
  | Refused;

/** What cancel() answers: refunded, still pending when the horizon passed, or refused (refund-refused, invalid state). */
export type CancelOutcome =
  | { kind: "refunded"; payment_id: string; attempts: number; body: CancelResult }
  | { kind: "refund-pending"; payment_id: string; attempts: number; body?: CancelResult; last: LastSeen }
  | Refused;

/** What getPayment() answers. */
export type GetPaymentOutcome =
  | { kind: "found"; payment_id: string; attempts: number; body: PaymentView }
  | { kind: "unavailable"; payment_id: string; attempts: number; last: LastSeen }
  | Refused;
