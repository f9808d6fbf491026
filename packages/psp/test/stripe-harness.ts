import Stripe from "stripe";
import { type FakePsp, type FakePspOptions, type PspFaultName, startFakePsp } from "../src/index";

/** Faults armed for one fake PSP only, handed to it as its takeFault/peekFault. */
export interface FaultTable {
  arm(name: PspFaultName, value: number, n?: number): void;
  takeFault(name: PspFaultName): number | undefined;
  peekFault(name: PspFaultName): number | undefined;
}

/** Creates an empty table: each armed fault answers its value for its next `n` takes. */
export function faultTable(): FaultTable {
  const armed = new Map<PspFaultName, { value: number; left: number }>();
  return {
    arm: (name, value, n = 1) => void armed.set(name, { value, left: n }),
    takeFault(name) {
      const fault = armed.get(name);
      if (!fault) return undefined;
      fault.left -= 1;
      if (fault.left <= 0) armed.delete(name);
      return fault.value;
    },
    peekFault: (name) => armed.get(name)?.value,
  };
}

/** A fake PSP with its own faults and the official SDK pointed at it, retries off. */
export interface StripeRig {
  psp: FakePsp;
  stripe: Stripe;
  faults: FaultTable;
}

export const SECRET_KEY = "sk_test_fake";
export const WEBHOOK_SECRET = "whsec_test_stripe";

/** The SDK as the adapter builds it against the fake: plain HTTP on loopback, no retries of its own. */
export function stripeFor(psp: FakePsp, config: Stripe.StripeConfig = {}, key = SECRET_KEY): Stripe {
  return new Stripe(key, {
    host: "127.0.0.1",
    port: psp.port,
    protocol: "http",
    maxNetworkRetries: 0,
    ...config,
  });
}

/** Starts a fake PSP and an SDK client for it; `stop` it after each test. */
export async function startRig(options: Partial<FakePspOptions> = {}): Promise<StripeRig> {
  const faults = faultTable();
  const psp = await startFakePsp({
    webhookSecret: WEBHOOK_SECRET,
    takeFault: faults.takeFault,
    peekFault: faults.peekFault,
    ...options,
  });
  return { psp, stripe: stripeFor(psp), faults };
}

/** The parameters of a charge as the adapter makes it: created and confirmed at once, card only. */
export function intentParams(
  paymentId: string,
  over: Partial<Stripe.PaymentIntentCreateParams> = {},
): Stripe.PaymentIntentCreateParams {
  return {
    amount: 3000,
    currency: "usd",
    payment_method: "pm_card_visa",
    confirm: true,
    automatic_payment_methods: { enabled: true, allow_redirects: "never" },
    metadata: { payment_id: paymentId },
    ...over,
  };
}

/** What a call threw, for asserting on it (fails when it did not throw). */
export async function thrown(promise: Promise<unknown>): Promise<Stripe.errors.StripeError> {
  try {
    await promise;
  } catch (err) {
    return err as Stripe.errors.StripeError;
  }
  throw new Error("expected the call to throw");
}
