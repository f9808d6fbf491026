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
