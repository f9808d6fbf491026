import { z } from "zod";
import { Amount, Currency, MerchantId, PaymentId, text } from "./fields";

/**
 * The body of `POST /payments`: the five fields the fingerprint covers (Part 2). Other fields are
 * stripped, so they neither fail the request nor change its fingerprint.
 */
export const PaymentRequest = z
  .object(
    {
      order_id: text("order_id", 128).meta({ description: "The app's own order reference.", example: "42" }),
      amount: Amount,
      currency: Currency,
      payment_method: text("payment_method", 128).meta({ example: "pm_1" }),
      merchant_id: MerchantId,
    },
    { error: "the body must be a JSON object" },
  )
  .meta({ id: "PaymentRequest" });
export type PaymentRequest = z.infer<typeof PaymentRequest>;

/** 201: the first success, and every repeat of it (with `Idempotent-Replayed: true`). */
export const PaymentSucceeded = z
  .object({
    payment_id: PaymentId,
    state: z.literal("SUCCEEDED"),
    order_id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    merchant_id: z.string(),
    psp_charge: z.string().meta({ example: "ch_1" }),
  })
  .meta({ id: "PaymentSucceeded" });
export type PaymentSucceeded = z.infer<typeof PaymentSucceeded>;

/** 402: a definite decline; the PSP's code says why. */
export const PaymentDeclined = z
  .object({
    payment_id: PaymentId,
    state: z.literal("FAILED"),
    decline_code: z.string().optional().meta({ example: "card_declined" }),
  })
  .meta({ id: "PaymentDeclined" });
export type PaymentDeclined = z.infer<typeof PaymentDeclined>;

/** 202: the outcome is not known yet; rendered from the ledger on every call, never stored. */
export const PaymentProcessing = z
  .object({ payment_id: PaymentId, state: z.literal("PROCESSING") })
  .meta({ id: "PaymentProcessing" });
export type PaymentProcessing = z.infer<typeof PaymentProcessing>;

/** What "did it go through?" answers; VOID means the key can never charge and the app may make a new one. */
export const ResolveResult = z
  .object({
    state: z.enum(["PROCESSING", "SUCCEEDED", "FAILED", "VOID"]),
    payment_id: PaymentId.optional(),
  })
  .meta({ id: "ResolveResult" });
export type ResolveResult = z.infer<typeof ResolveResult>;

/** The states a client sees: PENDING and UNKNOWN are both PROCESSING to it. */
export const VisibleState = z
  .enum([
    "PROCESSING",
    "SUCCEEDED",
    "FAILED",
    "REFUND_PENDING",
    "REFUND_UNKNOWN",
    "REFUNDED",
    "REFUND_FAILED",
  ])
  .meta({ id: "PaymentState" });

/** `GET /payments/{payment_id}`: the payment for its owner. */
export const PaymentView = z
  .object({
    payment_id: PaymentId,
    state: VisibleState,
    order_id: z.string(),
    amount: z.number().int(),
    currency: z.string(),
    merchant_id: z.string(),
    psp_charge: z.string().optional(),
    decline_code: z.string().optional(),
    created_at: z.number().int().meta({ description: "Milliseconds since the epoch." }),
    refund_failure_reason: z.string().optional().meta({
      description:
        "REFUND_FAILED only: the PSP's reason for failing the refund after accepting it (Stripe's `failure_reason`).",
    }),
  })
  .meta({ id: "PaymentView" });
export type PaymentView = z.infer<typeof PaymentView>;

/** `POST /payments/{payment_id}/cancel`: 202 REFUND_PENDING until the PSP's answer is known, then 200 REFUNDED. */
export const CancelResult = z
  .object({ payment_id: PaymentId, state: z.enum(["REFUND_PENDING", "REFUNDED"]) })
  .meta({ id: "CancelResult" });
export type CancelResult = z.infer<typeof CancelResult>;
