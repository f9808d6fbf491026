import { type Call, type PspContext, unixNow } from "../context";
import { errorReply, jsonReply } from "../http-io";
import { newId } from "../ids";
import type { KeyedOperation, Outcome } from "../keyed-request";
import type { Charge, IntentExtras } from "../ledger";
import { expandOf, type FormMap, metadataOf, nestForm, textOf } from "./form-params";
import { amountParam, booleanParam, invalidParam, missingParam } from "./stripe-errors";
import { AUTHENTICATION_REQUIRED, cardErrorOf, intentObjectOf } from "./stripe-objects";
import { AUTHENTICATION_TEST_CARDS, DECLINING_TEST_CARDS } from "./test-cards";

export { DECLINING_TEST_CARDS } from "./test-cards";

/** The parameters of `POST /v1/payment_intents`; the whole nested body is the idempotency fingerprint. */
export interface IntentParams {
  amount: number;
  currency: string;
  payment_method: string;
  metadata: Record<string, string>;
  reference: string;
  expand: string[];
  /** Stripe's `error_on_requires_action`: fail at once rather than wait for the customer to authenticate. */
  errorOnRequiresAction: boolean;
  body: FormMap;
}

/** Validates a create-and-confirm; the fake keeps no unconfirmed intents, so `confirm=true` is required. */
export function parseIntentParams(raw: Record<string, unknown>): IntentParams {
  const body = nestForm(Object.entries(raw));
  const amount = amountParam(textOf(body, "amount"));
  const currency = textOf(body, "currency");
  if (currency === undefined) throw missingParam("currency");
  if (!/^[A-Za-z]{3}$/.test(currency))
    throw invalidParam("parameter_invalid_string", "currency", "Invalid currency");
  const payment_method = textOf(body, "payment_method");
  if (!payment_method) throw missingParam("payment_method");
  if (textOf(body, "confirm") !== "true") throw missingParam("confirm");
  const metadata = metadataOf(body);
  // Our reference is what ties an intent to a payment; the fake refuses an intent that would be an orphan.
  const reference = metadata.payment_id;
  if (!reference) throw missingParam("metadata[payment_id]");
  const expand = expandOf(body);
  const errorOnRequiresAction = booleanParam(body, "error_on_requires_action");
  return {
    amount,
    currency: currency.toLowerCase(),
    payment_method,
    metadata,
    reference,
    expand,
    errorOnRequiresAction,
    body,
  };
}

type IntentStart = Pick<Charge, "status" | "decline_code"> & Pick<IntentExtras, "waiting" | "succeedsAtMs">;

// How a confirmed intent starts: declined by a test card, waiting for 3-D Secure (or failed at once under
// error_on_requires_action), processing under `psp_intent_processing` (its value: ms until it succeeds), or paid.
function startOf(ctx: PspContext, p: IntentParams): IntentStart {
  const declineCode = DECLINING_TEST_CARDS[p.payment_method];
  if (declineCode !== undefined) return { status: "failed", decline_code: declineCode };
  if (AUTHENTICATION_TEST_CARDS.has(p.payment_method)) {
    return p.errorOnRequiresAction
      ? { status: "failed", decline_code: AUTHENTICATION_REQUIRED }
      : { status: "pending", waiting: "requires_action" };
  }
  const processingMs = ctx.opts.takeFault("psp_intent_processing");
  if (processingMs !== undefined) {
    return { status: "pending", waiting: "processing", succeedsAtMs: ctx.opts.clock.now() + processingMs };
  }
  return { status: "succeeded" };
}

function recordOf(ctx: PspContext, p: IntentParams, key: string): Charge {
  const { status, decline_code, ...extras } = startOf(ctx, p);
  return {
    id: newId("pi"),
    object: "charge",
    amount: p.amount,
    currency: p.currency,
    payment_method: p.payment_method,
    reference: p.reference,
    idempotency_key: key,
    status,
    ...(decline_code === undefined ? {} : { decline_code }),
    refunded: false,
    created: unixNow(ctx),
    stripe: { latest_charge: newId("ch"), metadata: p.metadata, createdMs: ctx.opts.clock.now(), ...extras },
  };
}

function executeIntent(ctx: PspContext, account: string, p: IntentParams, key: string): Outcome {
  const record = recordOf(ctx, p, key);
  ctx.ledger.addCharge(account, record);
  const intent = intentObjectOf(record, p.expand);
  // Serialised now, so a replay after a refund still shows the intent as first answered, as Stripe's does.
  const { type, message, ...error } = cardErrorOf(record);
  const reply =
    record.status !== "failed"
      ? jsonReply(200, intent)
      : errorReply(402, type, message, { ...error, payment_intent: intent });
  // An intent that is not final yet has no event in the generic format, which knows only charges.
  const announced = record.status !== "pending" || ctx.opts.dialect === "stripe";
  return { reply, events: announced ? [{ kind: "charge", charge: record }] : [] };
}

/**
 * `POST /v1/payment_intents` with `confirm=true`: a PaymentIntent that succeeds, is declined by a test card, waits
 * for 3-D Secure (`requires_action`) or is `processing`.
 */
export function createIntentOperation(ctx: PspContext, call: Call): KeyedOperation<IntentParams> {
  return {
    parse: parseIntentParams,
    execute: (params, key) => executeIntent(ctx, call.account, params, key),
  };
}
