import { type Call, type PspContext, unixNow } from "./context";
import { errorReply, jsonReply, send } from "./http-io";
import { newId } from "./ids";
import type { KeyedOperation, Outcome } from "./keyed-request";
import type { Charge } from "./ledger";
import { sendList } from "./list-page";
import { type ChargeParams, parseChargeParams } from "./params";

/** The test card that is always declined, as in Stripe's test mode. */
export const DECLINED_PAYMENT_METHOD = "pm_card_declined";
/** The reason given for that card on every path: the reply, the webhook and a lookup. */
export const DECLINE_CODE = "generic_decline";

function declineReply(charge: Charge) {
  return errorReply(402, "card_error", "Your card was declined.", {
    code: "card_declined",
    decline_code: DECLINE_CODE,
    charge: charge.id,
  });
}

function executeCharge(ctx: PspContext, account: string, params: ChargeParams, key: string): Outcome {
  const declined = params.payment_method === DECLINED_PAYMENT_METHOD;
  const charge: Charge = {
    id: newId("ch"),
    object: "charge",
    ...params,
    idempotency_key: key,
    status: declined ? "failed" : "succeeded",
    ...(declined ? { decline_code: DECLINE_CODE } : {}),
    refunded: false,
    created: unixNow(ctx),
  };
  ctx.ledger.addCharge(account, charge);
  // The reply is serialised now, so a replay after a refund still shows the charge as first answered.
  const reply = declined ? declineReply(charge) : jsonReply(200, charge);
  return { reply, events: [{ kind: "charge", charge }] };
}

/** `POST /v1/charges`: creates a charge, or a failed one for the declined test card. */
export function chargeOperation(ctx: PspContext, call: Call): KeyedOperation<ChargeParams> {
  return {
    parse: parseChargeParams,
    execute: (params, key) => executeCharge(ctx, call.account, params, key),
  };
}

/** `GET /v1/charges?reference=…`: the account's charges, failed ones included, filtered by reference. */
export async function listCharges(ctx: PspContext, call: Call): Promise<void> {
  const reference = call.url.searchParams.get("reference") ?? undefined;
  const data = ctx.ledger.listCharges(call.account, reference);
  await sendList(ctx, call, data, "/v1/charges");
}

/** `GET /v1/charges/{id}`: one charge of the account, or 404. */
export function getCharge(ctx: PspContext, call: Call, id: string): void {
  const charge = ctx.ledger.getCharge(call.account, id);
  const missing = errorReply(404, "invalid_request_error", `No such charge: '${id}'`, {
    code: "resource_missing",
  });
  send(call.res, charge ? jsonReply(200, charge) : missing);
}
