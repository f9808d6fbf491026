import { randomUUID } from "node:crypto";
import { localSecrets } from "../../packages/local/src/stack/handler-env";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";

// What someone else does at the PSP (a charge our ledger never heard of, a refund from the PSP's dashboard), in the
// dialect the stack's fake PSP speaks, for the account our handlers use (the fake keeps an account per secret key).
const keyOf = (stack: LocalStack) =>
  (stack.pspDialect === "stripe" ? localSecrets().StripeSecretKey : localSecrets().PspApiKey) as string;

async function post(
  stack: LocalStack,
  path: string,
  body: Record<string, string | number>,
): Promise<Response> {
  const stripe = stack.pspDialect === "stripe";
  return fetch(`${stack.psp.url}${path}`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${keyOf(stack)}`,
      "idempotency-key": randomUUID(),
      "content-type": stripe ? "application/x-www-form-urlencoded" : "application/json",
    },
    body: stripe
      ? new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)])).toString()
      : JSON.stringify(body),
  });
}

/** Charges a card at the PSP under our reference but outside our API (an orphan for the reconcile to find). */
export async function chargeAtThePsp(stack: LocalStack, reference: string, amount = 3000): Promise<Response> {
  if (stack.pspDialect === "stripe") {
    return post(stack, "/v1/payment_intents", {
      amount: String(amount),
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: "true",
      "metadata[payment_id]": reference,
    });
  }
  return post(stack, "/v1/charges", { amount, currency: "usd", payment_method: "pm_1", reference });
}

/** Refunds a charge at the PSP with a key of the PSP user's own (a refund from the dashboard). */
export async function refundAtThePsp(stack: LocalStack, charge: string): Promise<Response> {
  return stack.pspDialect === "stripe"
    ? post(stack, "/v1/refunds", { payment_intent: charge })
    : post(stack, "/v1/refunds", { charge });
}
