import type { PspContext } from "../context";
import { errorReply } from "../http-io";
import { newId } from "../ids";
import type { Outcome } from "../keyed-request";
import { isTestShortcut } from "./test-cards";

/**
 * The PaymentMethod an intent is paid with: each use of a test shortcut (`pm_card_visa`) makes a new one at Stripe,
 * with an id of its own; any other id is the client's own PaymentMethod.
 */
export function paymentMethodIdOf(given: string): string {
  return isTestShortcut(given) ? newId("pm") : given;
}

const REUSED =
  "The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, shared with a " +
  "connected account without Customer attachment, or was detached from a Customer. It may not be used again. To " +
  "use a PaymentMethod multiple times, you must attach it to a Customer first.";

/**
 * Stripe's refusal of a PaymentMethod the fake issued (from a shortcut) that an intent without a customer has
 * already used, or undefined. Ids the fake did not issue (the tests' `pm_1`) are not tracked and stay reusable.
 */
export function reusedMethod(
  ctx: PspContext,
  account: string,
  id: string,
  customer?: string,
): Outcome | undefined {
  if (customer !== undefined) return undefined;
  const earlier = ctx.ledger
    .listCharges(account)
    .find(
      (c) => c.stripe?.paymentMethodId === id && c.payment_method !== id && c.stripe.customer === undefined,
    );
  if (earlier === undefined) return undefined;
  const reply = errorReply(400, "invalid_request_error", REUSED, { param: "payment_method" });
  return { reply, events: [] };
}
