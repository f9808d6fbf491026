import { type FakePsp, type FakePspOptions, startFakePsp } from "../../../psp/src/index";
import type { ChargeParams } from "../../src/psp/psp-port";
import { StripePsp } from "../../src/psp/stripe-psp";

/** A fake PSP and a StripePsp pointed at it through the real SDK, as a stage would be at Stripe test mode. */
export interface StripeRig {
  psp: FakePsp;
  stripe: StripePsp;
}

/** Starts a fake PSP with room for a test's bursts, and the adapter on its Stripe dialect. */
export async function startStripeRig(opts: Partial<FakePspOptions> = {}): Promise<StripeRig> {
  const psp = await startFakePsp({
    webhookSecret: "whsec_test",
    rateLimits: { perAccount: 10_000, perEndpoint: 10_000 },
    ...opts,
  });
  const stripe = new StripePsp("sk_test_rig", { host: "127.0.0.1", port: psp.port, protocol: "http" });
  return { psp, stripe };
}

/** A payment's charge parameters under reference `reference`. */
export function chargeOf(reference: string, payment_method = "pm_card_visa"): ChargeParams {
  return { amount: 3000, currency: "USD", payment_method, reference };
}

/** The requests that reached the fake for `path`, as `METHOD /path`. */
export function sent(psp: FakePsp, line: string): number {
  return psp.requestLog().filter((l) => l === line).length;
}
