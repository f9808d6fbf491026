import { type Call, type PspContext, unixNow } from "./context";
import { errorReply, jsonReply } from "./http-io";
import { newId } from "./ids";
import type { KeyedOperation, Outcome } from "./keyed-request";
import type { Charge, Refund } from "./ledger";
import { sendList } from "./list-page";
import { parseRefundParams, type RefundParams } from "./params";

function notFound(id: string): Outcome {
  const reply = errorReply(404, "invalid_request_error", `No such charge: '${id}'`, {
    code: "resource_missing",
    param: "charge",
  });
  return { reply, events: [] };
}

/** Why a charge cannot be refunded (not succeeded, or already refunded), as a saved 400, or undefined. */
export function refusal(charge: Charge): Outcome | undefined {
  const code =
    charge.status !== "succeeded"
      ? "charge_not_refundable"
      : charge.refunded
        ? "charge_already_refunded"
        : undefined;
  if (code === undefined) return undefined;
  const message = `Charge ${charge.id} cannot be refunded (${code}).`;
  return { reply: errorReply(400, "invalid_request_error", message, { code }), events: [] };
}

/** The `psp_refund_refuse` fault's refusal, or undefined when it is not armed. */
// A definite refusal with a reason (the account's balance cannot cover it), saved under the key like any result.
export function injectedRefusal(ctx: PspContext): Outcome | undefined {
  if (ctx.opts.takeFault("psp_refund_refuse") === undefined) return undefined;
  const message = "The refund could not be made: the account's balance is insufficient (injected fault).";
  return {
    reply: errorReply(400, "invalid_request_error", message, { code: "balance_insufficient" }),
    events: [],
  };
}

function executeRefund(ctx: PspContext, account: string, params: RefundParams, key: string): Outcome {
  const charge = ctx.ledger.getCharge(account, params.charge);
  if (!charge) return notFound(params.charge);
  const refused = refusal(charge) ?? injectedRefusal(ctx);
  if (refused) return refused;
  const refund: Refund = {
    id: newId("re"),
    object: "refund",
    charge: charge.id,
    amount: charge.amount,
    currency: charge.currency,
    ...(params.reference === undefined ? {} : { reference: params.reference }),
    idempotency_key: key,
    status: "succeeded",
    created: unixNow(ctx),
  };
  charge.refunded = true;
  ctx.ledger.addRefund(account, refund);
  return { reply: jsonReply(200, refund), events: [{ kind: "refund", charge, refund }] };
}

/** `POST /v1/refunds`: refunds a whole charge; an unknown charge is a 404 that is saved like any result. */
export function refundOperation(ctx: PspContext, call: Call): KeyedOperation<RefundParams> {
  return {
    parse: parseRefundParams,
    execute: (params, key) => executeRefund(ctx, call.account, params, key),
  };
}

/** `GET /v1/refunds?charge=…`: the account's refunds, filtered by the charge they undo. */
export async function listRefunds(ctx: PspContext, call: Call): Promise<void> {
  const charge = call.url.searchParams.get("charge") ?? undefined;
  await sendList(ctx, call, ctx.ledger.listRefunds(call.account, charge), "/v1/refunds");
}
