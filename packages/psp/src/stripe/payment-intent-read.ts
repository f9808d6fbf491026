import type { Call, PspContext } from "../context";
import { jsonReply, send } from "../http-io";
import type { Charge } from "../ledger";
import { expandOf } from "./form-params";
import { resourceMissing } from "./stripe-errors";
import { queryOf, sendStripeList } from "./stripe-list";
import { chargeIdOf, chargeObjectOf, intentObjectOf } from "./stripe-objects";

/** The account's PaymentIntents, oldest first; generic charges are not intents and are left out. */
export function intentsOf(ctx: PspContext, account: string): Charge[] {
  return ctx.ledger.listCharges(account).filter((c) => c.stripe !== undefined);
}

/** `GET /v1/payment_intents/{id}`, with `expand[]=latest_charge`. */
export function retrieveIntent(ctx: PspContext, call: Call, id: string): void {
  const record = intentsOf(ctx, call.account).find((c) => c.id === id);
  const expand = expandOf(queryOf(call));
  send(
    call.res,
    record ? jsonReply(200, intentObjectOf(record, expand)) : resourceMissing("payment_intent", id),
  );
}

/** `GET /v1/payment_intents?created[gte]=…&limit=…&starting_after=…`: read-after-write consistent, newest first. */
export async function listIntents(ctx: PspContext, call: Call): Promise<void> {
  const expand = expandOf(queryOf(call)).map((e) => e.replace(/^data\./, ""));
  await sendStripeList(ctx, call, intentsOf(ctx, call.account), "/v1/payment_intents", (c) =>
    intentObjectOf(c, expand),
  );
}

/** The PaymentIntent whose charge is `chargeId`, if the account has one. */
export function intentOfCharge(ctx: PspContext, account: string, chargeId: string): Charge | undefined {
  return intentsOf(ctx, account).find((c) => chargeIdOf(c) === chargeId);
}

/** `GET /v1/charges/{id}` of a PaymentIntent's charge: the Charge as it is now. */
export function retrieveStripeCharge(ctx: PspContext, call: Call, id: string): void {
  const record = intentOfCharge(ctx, call.account, id);
  send(call.res, record ? jsonReply(200, chargeObjectOf(record)) : resourceMissing("charge", id));
}
