import { z } from "zod";
import { DeviceCreated, DeviceRequest } from "./devices";
import { DeviceId, IdempotencyKey, PaymentId } from "./fields";
import {
  CancelResult,
  PaymentDeclined,
  PaymentProcessing,
  PaymentRequest,
  PaymentSucceeded,
  PaymentView,
  ResolveResult,
} from "./payments";
import type { ProblemKind } from "./problem";
import { PspEvent, StripeEvent, StripeWebhookReceipt, WebhookReceipt } from "./webhook";

/** One documented answer of a route: a JSON body, or problems of the kinds listed. */
export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  problems?: readonly ProblemKind[];
  headers?: readonly ("Retry-After" | "Idempotent-Replayed")[];
}

/** One route of the public API, as the handlers validate it and the OpenAPI document shows it. */
export interface RouteDoc {
  operationId: string;
  summary: string;
  description: string;
  auth: "jwt" | "psp-signature" | "stripe-signature";
  headers?: z.ZodObject;
  params?: z.ZodObject;
  body?: z.ZodType;
  responses: Record<number, ResponseDoc>;
}

const keyHeader = z.object({ "Idempotency-Key": IdempotencyKey });
const retry = ["Retry-After"] as const;
// Every write may meet a passive Region (Part 9) or a request that arrived too late to run.
const passive: ResponseDoc = {
  description: "This Region is the passive standby, or the request was older than the deadline on arrival.",
  problems: ["region-passive", "deadline-passed"],
};

/** The public API's routes, keyed as `stacks/handlers.ts` keys them (`METHOD /path`). */
export const ROUTES = {
  "POST /payments": {
    operationId: "createPayment",
    summary: "Take a payment, once per Idempotency-Key",
    description:
      "The key is made by the client before the first send and reused on every retry. A repeat gets the first final answer with `Idempotent-Replayed: true`; an outcome not yet known is 202, rendered from the ledger on every call.",
    auth: "jwt",
    headers: keyHeader,
    body: PaymentRequest,
    responses: {
      201: {
        description:
          "The charge succeeded (first answer or its replay, or the charge the PSP holds for a key voided under an earlier Region epoch).",
        schema: PaymentSucceeded,
      },
      202: {
        description: "Outcome not yet known; retry with the same key.",
        schema: PaymentProcessing,
        headers: retry,
      },
      402: { description: "A definite decline.", schema: PaymentDeclined },
      400: { description: "Missing or invalid key or body; nothing was written.", problems: ["bad-request"] },
      409: {
        description:
          "Another request with this key is running, or the key was voided by resolve (a void of an earlier Region epoch only when the PSP holds no charge for it).",
        problems: ["in-progress", "key-voided"],
        headers: retry,
      },
      413: { description: "Body over 16 KiB.", problems: ["too-large"] },
      422: {
        description: "Same key, different request, or an amount under the PSP's minimum: nothing runs.",
        problems: ["fingerprint-mismatch", "amount-below-minimum"],
      },
      503: { ...passive, problems: ["deadline-passed", "region-passive", "psp-unavailable"], headers: retry },
    },
  },
  "POST /payments/resolve": {
    operationId: "resolvePayment",
    summary: "Did it go through? (an absent key becomes VOID)",
    description:
      "Answers the key's state. A key the server has never seen becomes VOID in both stores, so the lost original can never charge; the app may then make a new key. VOID only when the PSP's answer that nothing was charged is final (at once where its lookup is read-after-write consistent, otherwise after PSP_NOT_FOUND_SETTLE_S since the active epoch's start): until then PROCESSING with Retry-After.",
    auth: "jwt",
    headers: keyHeader,
    responses: {
      200: {
        description: "The key's state; PROCESSING carries Retry-After (when to ask again).",
        schema: ResolveResult,
        headers: retry,
      },
      400: { description: "Missing or invalid key.", problems: ["bad-request"] },
      503: passive,
    },
  },
  "GET /payments/{payment_id}": {
    operationId: "getPayment",
    summary: "A payment, for its owner",
    description: "404 for anyone but the owner (never 403: no probing).",
    auth: "jwt",
    params: z.object({ payment_id: PaymentId }),
    responses: {
      200: { description: "The payment.", schema: PaymentView },
      400: { description: "Not a payment id.", problems: ["bad-request"] },
      404: { description: "No such payment for this caller.", problems: ["not-found"] },
    },
  },
  "POST /payments/{payment_id}/cancel": {
    operationId: "cancelPayment",
    summary: "Refund a payment with its derived refund key",
    description: "202 REFUND_PENDING until the PSP's answer is known, then 200 REFUNDED. Repeats are safe.",
    auth: "jwt",
    params: z.object({ payment_id: PaymentId }),
    responses: {
      200: { description: "Refunded.", schema: CancelResult },
      202: { description: "Refund not yet known.", schema: CancelResult, headers: retry },
      400: { description: "Not a payment id.", problems: ["bad-request"] },
      404: { description: "No such payment for this caller.", problems: ["not-found"] },
      409: {
        description: "The payment cannot be refunded now, or the PSP refused the refund.",
        problems: ["invalid-state", "refund-refused"],
      },
      503: passive,
    },
  },
  "POST /devices": {
    operationId: "registerDevice",
    summary: "Register the caller's device for push",
    description:
      "The same token again is the same device; a token another caller held moves to this caller. An installation that sends `installation_id` and `counter` has one current device: a newer counter's token replaces the earlier one, and an older counter is refused.",
    auth: "jwt",
    body: DeviceRequest,
    responses: {
      201: { description: "The device.", schema: DeviceCreated },
      400: { description: "Invalid body or Content-Type.", problems: ["bad-request"] },
      409: {
        description:
          "An installation's registration older than one it already made, or than the delete of the device it registered.",
        problems: ["stale-registration"],
      },
      413: { description: "Body over 16 KiB.", problems: ["too-large"] },
      503: passive,
    },
  },
  "DELETE /devices/{device_id}": {
    operationId: "deleteDevice",
    summary: "Stop notifications to a device",
    description: "204 for its owner; 404 for anyone else.",
    auth: "jwt",
    params: z.object({ device_id: DeviceId }),
    responses: {
      204: { description: "Deleted." },
      400: { description: "Not a device id, or a body was sent.", problems: ["bad-request"] },
      404: { description: "No such device for this caller.", problems: ["not-found"] },
      503: passive,
    },
  },
  "POST /webhooks/psp": {
    operationId: "pspWebhook",
    summary: "The PSP's signed events",
    description:
      'Signed with `Psp-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Each event applies at most once (inbox keyed by the event id).',
    auth: "psp-signature",
    headers: z.object({
      "Psp-Signature": z.string().meta({ example: "t=1764590400,v1=5f2b…" }),
    }),
    body: PspEvent,
    responses: {
      200: {
        description: "Taken: applied, a duplicate, or about no payment of ours.",
        schema: WebhookReceipt,
      },
      400: {
        description: "Bad signature, a timestamp over 300 s off, or not a PSP event.",
        problems: ["bad-request"],
      },
      404: {
        description:
          "This stage's PSP speaks Stripe's dialect (PSP=stripe): its events go to /webhooks/stripe.",
        problems: ["not-found"],
      },
      413: { description: "Body over 64 KiB.", problems: ["too-large"] },
      503: {
        description:
          "This Region is passive, or the event is ahead of its payment here (still replicating, or its charge still settling): deliver it again.",
        problems: ["region-passive", "deadline-passed", "event-ahead"],
        headers: retry,
      },
    },
  },
  "POST /webhooks/stripe": {
    operationId: "stripeWebhook",
    summary: "Stripe's signed events (a stage with PSP=stripe)",
    description:
      'Checked with the Stripe SDK (`stripe.webhooks.constructEvent`, 300 s tolerance): `Stripe-Signature: t=<unix>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`, secret `StripeWebhookSecret`. `payment_intent.succeeded` applies as `charge.succeeded` (the charge id is the id of the PaymentIntent), `payment_intent.payment_failed` as `charge.failed` (decline code from `last_payment_error`), `charge.refunded` in full as `refund.succeeded`; `refund.updated`, `refund.failed` and `charge.refund.updated` settle the refund of the payment (succeeded: REFUNDED; failed or canceled after Stripe accepted it: REFUND_FAILED, the debit of the merchant taken back and the buyer told); our reference is `metadata.payment_id`. The same allowed moves, inbox (keyed by the event id) and anomaly rule as `/webhooks/psp`; any other type is answered 200 and ignored. On a stage of the generic dialect: 404.',
    auth: "stripe-signature",
    headers: z.object({
      "Stripe-Signature": z.string().meta({ example: "t=1764590400,v1=5f2b…" }),
    }),
    body: StripeEvent,
    responses: {
      200: {
        description: "Taken: applied, a duplicate, about no payment of ours, or a type we do not act on.",
        schema: StripeWebhookReceipt,
      },
      400: {
        description:
          "Bad or missing Stripe-Signature, a timestamp over 300 s old, or not Stripe's event shape.",
        problems: ["bad-request"],
      },
      404: {
        description: "This stage's PSP speaks the generic dialect: its events go to /webhooks/psp.",
        problems: ["not-found"],
      },
      413: { description: "Body over 64 KiB.", problems: ["too-large"] },
      503: {
        description:
          "This Region is passive, or the event is ahead of its payment here (still replicating, or its charge still settling): deliver it again.",
        problems: ["region-passive", "deadline-passed", "event-ahead"],
        headers: retry,
      },
    },
  },
} as const satisfies Record<string, RouteDoc>;

/** A route key such as `POST /payments`. */
export type RouteKey = keyof typeof ROUTES;

/** The version of the public contract the document describes; a breaking change bumps the major. */
export const API_VERSION = "1.0.0";
