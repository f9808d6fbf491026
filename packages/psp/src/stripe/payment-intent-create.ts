import { type Call, type PspContext, unixNow } from "../context";
import { errorReply, jsonReply } from "../http-io";
import { newId } from "../ids";
import type { KeyedOperation, Outcome } from "../keyed-request";
import type { Charge } from "../ledger";
import { expandOf, type FormMap, metadataOf, nestForm, textOf } from "./form-params";
import { amountParam, invalidParam, missingParam } from "./stripe-errors";
import { cardErrorOf, intentObjectOf } from "./stripe-objects";

/** Stripe's test payment methods that are declined, with the decline code each gives. */
export const DECLINING_TEST_CARDS: Readonly<Record<string, string>> = {
  pm_card_declined: "generic_decline",
  pm_card_visa_chargeDeclined: "generic_decline",
  pm_card_visa_chargeDeclinedInsufficientFunds: "insufficient_funds",
  pm_card_visa_chargeDeclinedLostCard: "lost_card",
};

/** The parameters of `POST /v1/payment_intents`; the whole nested body is the idempotency fingerprint. */
export interface IntentParams {
  amount: number;
  currency: string;
  payment_method: string;
  metadata: Record<string, string>;
  reference: string;
  expand: string[];
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
  return { amount, currency: currency.toLowerCase(), payment_method, metadata, reference, expand, body };
}

function recordOf(ctx: PspContext, p: IntentParams, key: string): Charge {
  const declineCode = DECLINING_TEST_CARDS[p.payment_method];
  return {
    id: newId("pi"),
    object: "charge",
    amount: p.amount,
    currency: p.currency,
    payment_method: p.payment_method,
    reference: p.reference,
    idempotency_key: key,
    status: declineCode === undefined ? "succeeded" : "failed",
    ...(declineCode === undefined ? {} : { decline_code: declineCode }),
    refunded: false,
    created: unixNow(ctx),
    stripe: { latest_charge: newId("ch"), metadata: p.metadata, createdMs: ctx.opts.clock.now() },
  };
}

function executeIntent(ctx: PspContext, account: string, p: IntentParams, key: string): Outcome {
  const record = recordOf(ctx, p, key);
  ctx.ledger.addCharge(account, record);
  const intent = intentObjectOf(record, p.expand);
  // Serialised now, so a replay after a refund still shows the intent as first answered, as Stripe's does.
  const reply =
    record.status === "succeeded"
      ? jsonReply(200, intent)
      : errorReply(402, "card_error", "Your card was declined.", {
          ...cardErrorOf(record),
          payment_intent: intent,
        });
  return { reply, events: [{ kind: "charge", charge: record }] };
}

/** `POST /v1/payment_intents` with `confirm=true`: a PaymentIntent that succeeds, or is declined by a test card. */
export function createIntentOperation(ctx: PspContext, call: Call): KeyedOperation<IntentParams> {
  return {
    parse: parseIntentParams,
    execute: (params, key) => executeIntent(ctx, call.account, params, key),
  };
}
