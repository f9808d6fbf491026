import { z } from "zod";

const PspId = (what: string, example: string) =>
  z
    .string({
      error: `${what} must be the PSP ${what.includes("charge") ? "charge" : "event"} id, e.g. "${example}"`,
    })
    .regex(/^[A-Za-z0-9_\-.:]{1,255}$/, {
      error: `${what} must be the PSP ${what.includes("charge") ? "charge" : "event"} id, e.g. "${example}"`,
    });
const Ref = (field: string) =>
  z.string({ error: `data.charge.${field} must be a string of at most 255` }).max(255, {
    error: `data.charge.${field} must be a string of at most 255`,
  });
const TYPES = ["charge.succeeded", "charge.failed", "refund.succeeded"] as const;

/** A PSP event as the PSP posts it to `POST /webhooks/psp` (signed; at least once). */
export const PspEvent = z
  .object(
    {
      id: PspId("id", "evt_123"),
      type: z.enum(TYPES, {
        error: (iss) => `type must be one of ${TYPES.join(", ")}; got ${JSON.stringify(iss.input)}`,
      }),
      data: z.object(
        {
          charge: z
            .object(
              {
                id: PspId("data.charge.id", "ch_123"),
                idempotency_key: Ref("idempotency_key").optional(),
                reference: Ref("reference").optional(),
                decline_code: z.string().optional(),
              },
              { error: "data.charge must be an object" },
            )
            .refine((c) => c.idempotency_key !== undefined || c.reference !== undefined, {
              error: "data.charge needs idempotency_key or reference",
            }),
          refund: z.object({ id: z.string() }).optional(),
        },
        { error: "data.charge must be an object" },
      ),
    },
    { error: "the webhook body must be a JSON object (a PSP event)" },
  )
  .meta({ id: "PspEvent" });
export type PspEvent = z.infer<typeof PspEvent>;

/** 200: the event was taken (applied, a duplicate, or about no payment of ours), so the PSP stops retrying. */
export const WebhookReceipt = z
  .object({
    received: z.literal(true),
    applied: z.boolean(),
    duplicate: z.boolean(),
    unknownPayment: z.boolean().optional(),
    anomaly: z.boolean().optional(),
  })
  .meta({ id: "WebhookReceipt" });

const STRIPE_TYPES = [
  "payment_intent.succeeded",
  "payment_intent.payment_failed",
  "charge.refunded",
] as const;

/**
 * A Stripe event as Stripe posts it to `POST /webhooks/stripe` (documentation only: the SDK checks the signature and
 * parses it; the handler maps the three types below onto the PSP event and answers any other type 200, ignored).
 */
export const StripeEvent = z
  .object({
    id: z.string().meta({ example: "evt_1" }),
    object: z.literal("event"),
    type: z.string().meta({
      description: `Acted on: ${STRIPE_TYPES.join(", ")}. Any other type is answered 200 and ignored.`,
      example: "payment_intent.succeeded",
    }),
    data: z.object({
      object: z
        .looseObject({
          id: z.string(),
          metadata: z.looseObject({ payment_id: z.string().optional() }).optional(),
        })
        .meta({
          description:
            "The PaymentIntent (payment_intent.*) or the Charge (charge.refunded, with `payment_intent`); `metadata.payment_id` is our reference.",
        }),
    }),
    request: z
      .object({ id: z.string().nullable(), idempotency_key: z.string().nullable() })
      .nullable()
      .optional(),
  })
  .meta({ id: "StripeEvent" });

/** 200 from `/webhooks/stripe`: applied as a PSP event, or a type we do not act on (`ignored` says why). */
export const StripeWebhookReceipt = z
  .object({
    received: z.literal(true),
    applied: z.boolean().optional(),
    duplicate: z.boolean().optional(),
    unknownPayment: z.boolean().optional(),
    anomaly: z.boolean().optional(),
    ignored: z.string().optional(),
  })
  .meta({ id: "StripeWebhookReceipt" });
