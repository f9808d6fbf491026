import type { PspDialect } from "@eo/core";
import type { FakePsp } from "@eo/psp";

/** The PSP the local stack calls instead of its fake: where it is, and what a person is told about it. */
export interface ExternalPspChoice {
  url: string;
  dialect: PspDialect;
}

/** Raised when `PSP_URL` names a PSP the local stack must not or cannot call; the message says what to change. */
export class ExternalPspRefused extends Error {
  override readonly name = "ExternalPspRefused";
}

/**
 * Reads whether `npm start` calls a real PSP (env `PSP_URL`) instead of starting its fake, and refuses what would be
 * unsafe: a Stripe stage without its secret key, or a live-mode key (a local stack is for test mode: its faults,
 * clock and replays would act on real cards).
 */
export function externalPspOf(env: NodeJS.ProcessEnv, dialect: PspDialect): ExternalPspChoice | undefined {
  const raw = env.PSP_URL?.trim();
  if (!raw) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ExternalPspRefused(`PSP_URL=${raw} is not a URL; e.g. PSP_URL=https://api.stripe.com`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new ExternalPspRefused(`PSP_URL=${raw} must be an http(s) URL`);
  if (dialect === "stripe") {
    const key = env.STRIPE_SECRET_KEY?.trim();
    if (!key)
      throw new ExternalPspRefused(
        "PSP=stripe with PSP_URL needs STRIPE_SECRET_KEY (a test-mode key, sk_test_…, from the Stripe dashboard)",
      );
    if (/^(sk|rk)_live_/.test(key))
      throw new ExternalPspRefused(
        "STRIPE_SECRET_KEY is a live-mode key: the local stack takes test-mode keys only (sk_test_… or rk_test_…)",
      );
  }
  return { url: raw.replace(/\/+$/, ""), dialect };
}

/** What the inspection routes answer for a record only the fake PSP keeps. */
export class NotKeptByExternalPsp extends Error {
  override readonly name = "NotKeptByExternalPsp";
}

/**
 * The FakePsp face of a real PSP, so that the stack runs unchanged against it: it points the handlers at `url` and
 * starts nothing. What only the fake can answer (its charge list, its counters, redelivery, a webhook target) raises
 * NotKeptByExternalPsp, which the `/_local` routes answer as 501 naming where to look instead.
 */
export function externalPsp(choice: ExternalPspChoice): FakePsp {
  const where =
    choice.dialect === "stripe"
      ? "in the Stripe dashboard (test mode) or with the stripe CLI"
      : `at the PSP itself (${choice.url})`;
  const notKept = (what: string) => (): never => {
    throw new NotKeptByExternalPsp(`the local stack calls a real PSP (PSP_URL): its ${what} are ${where}`);
  };
  const url = new URL(choice.url);
  return {
    url: choice.url,
    port: Number(url.port || (url.protocol === "https:" ? 443 : 80)),
    charges: notKept("charges"),
    refunds: notKept("refunds"),
    requests: notKept("request counts"),
    requestLog: notKept("request logs"),
    setWebhookUrl: notKept("webhook endpoints"),
    webhookDeliveries: notKept("webhook deliveries"),
    webhooksPending: () => 0,
    webhookEvents: notKept("webhook events"),
    redeliverWebhooks: notKept("webhook events (resend one from there)"),
    stats: notKept("request counters"),
    settleDue: () => 0,
    dashboardRefund: notKept("refunds (refund one in the dashboard)"),
    topUpBalance: notKept("balances (top up in the dashboard)"),
    failRefund: notKept("refunds (fail one with Stripe's test card pm_card_refundFail)"),
    seedIntents: notKept("intents (a real account holds what it holds)"),
    stop: async () => undefined,
  };
}
