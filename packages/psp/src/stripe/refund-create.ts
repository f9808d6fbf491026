import { type Call, type PspContext, unixNow } from "../context";
import { errorReply, jsonReply, send } from "../http-io";
import { newId } from "../ids";
import type { KeyedOperation, Outcome } from "../keyed-request";
import type { Charge, Refund } from "../ledger";
import { injectedRefusal, refusal } from "../refund-routes";
import { type FormMap, metadataOf, nestForm, textOf } from "./form-params";
import { intentsOf } from "./payment-intent-read";
import { refundStartOf } from "./refund-life";
import { amountParam, missingParam, resourceMissing } from "./stripe-errors";
import { sendStripeList } from "./stripe-list";
import { chargeIdOf, refundObjectOf } from "./stripe-objects";

/** The parameters of a form-encoded `POST /v1/refunds`; the whole nested body is the fingerprint. */
export interface StripeRefundParams {
  target: { param: "payment_intent" | "charge"; id: string };
  amount?: number;
  metadata: Record<string, string>;
  body: FormMap;
}

/** Validates a refund of a whole PaymentIntent (or of its charge); a partial amount is not modelled. */
export function parseStripeRefund(raw: Record<string, unknown>): StripeRefundParams {
  const body = nestForm(Object.entries(raw));
  const intent = textOf(body, "payment_intent");
  const charge = textOf(body, "charge");
  if (!intent && !charge) throw missingParam("payment_intent");
  const target = intent
    ? { param: "payment_intent" as const, id: intent }
    : { param: "charge" as const, id: charge as string };
  const amountText = textOf(body, "amount");
  const amount = amountText === undefined ? undefined : amountParam(amountText);
  return { target, ...(amount === undefined ? {} : { amount }), metadata: metadataOf(body), body };
}

function targetOf(ctx: PspContext, account: string, p: StripeRefundParams): Charge | undefined {
  const { param, id } = p.target;
  const intents = intentsOf(ctx, account);
  return param === "payment_intent"
    ? intents.find((c) => c.id === id)
    : intents.find((c) => chargeIdOf(c) === id);
}

function refundOf(ctx: PspContext, record: Charge, p: StripeRefundParams, key: string): Refund {
  return {
    id: newId("re"),
    object: "refund",
    charge: record.id,
    amount: record.amount,
    currency: record.currency,
    reference: p.metadata.payment_id ?? record.reference,
    idempotency_key: key,
    created: unixNow(ctx),
    metadata: p.metadata,
    ...refundStartOf(ctx, record),
  };
}

function executeRefund(ctx: PspContext, account: string, p: StripeRefundParams, key: string): Outcome {
  const record = targetOf(ctx, account, p);
  if (!record) return { reply: resourceMissing(p.target.param, p.target.id, p.target.param), events: [] };
  const refused = refusal(record) ?? injectedRefusal(ctx);
  if (refused) return refused;
  if (p.amount !== undefined && p.amount !== record.amount) {
    const message = "The fake PSP refunds whole payments only.";
    return {
      reply: errorReply(400, "invalid_request_error", message, { code: "amount_invalid" }),
      events: [],
    };
  }
  const refund = refundOf(ctx, record, p, key);
  // A pending refund already counts against the charge at Stripe; only a failure gives its amount back.
  record.refunded = true;
  ctx.ledger.addRefund(account, refund);
  return {
    reply: jsonReply(200, refundObjectOf(refund, record)),
    events: [{ kind: "refund", charge: record, refund }],
  };
}

/** Form-encoded `POST /v1/refunds` with `payment_intent`: refunds the whole intent, once per key. */
export function stripeRefundOperation(ctx: PspContext, call: Call): KeyedOperation<StripeRefundParams> {
  return {
    parse: parseStripeRefund,
    execute: (params, key) => executeRefund(ctx, call.account, params, key),
  };
}

/** `GET /v1/refunds?payment_intent=…`: the intent's refunds as a Stripe list. */
export async function listStripeRefunds(ctx: PspContext, call: Call): Promise<void> {
  const intent = call.url.searchParams.get("payment_intent") ?? "";
  const record = intentsOf(ctx, call.account).find((c) => c.id === intent);
  const refunds = ctx.ledger.listRefunds(call.account, intent);
  await sendStripeList(ctx, call, refunds, "/v1/refunds", (r) => refundObjectOf(r, record));
}

/** `GET /v1/refunds/{id}`: one refund as it is now (consistent), whatever became of it since its creation. */
export function retrieveStripeRefund(ctx: PspContext, call: Call, id: string): void {
  const refund = ctx.ledger.listRefunds(call.account).find((r) => r.id === id);
  const record = refund && ctx.ledger.getCharge(call.account, refund.charge);
  send(call.res, refund ? jsonReply(200, refundObjectOf(refund, record)) : resourceMissing("refund", id));
}
