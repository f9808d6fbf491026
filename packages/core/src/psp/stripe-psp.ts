import type Stripe from "stripe";
import { type Clock, clock as sharedClock } from "../clock/clock";
import type { ChargeLookup, ChargeParams, PspOrigin, PspPort, PspReply } from "./psp-port";
import { createBodyOf, refundBodyOf, stripeKeyOf } from "./stripe-bodies";
import { createStripeClient, requestOptions, type StripeEndpoint, timed } from "./stripe-client";
import { findChargeByReference, findRefundOf, type LookupCall, retrieveFresh } from "./stripe-lookup";
import { readRefundById } from "./stripe-refund-read";
import { chargeErrorReply, intentReply, refundErrorReply, refundReply } from "./stripe-replies";

/**
 * The PSP port spoken to Stripe through the official SDK: a charge is a PaymentIntent created and confirmed under
 * our derived key, a refund a Refund of that intent under its own, and a lookup a consistent list (see
 * stripe-lookup). The reply's id of a charge is the PaymentIntent's id (`pi_…`): it is what a refund names.
 */
export class StripePsp implements PspPort {
  // Its lookup is a list of PaymentIntents by creation time, which is read-after-write consistent (never search).
  readonly lookupConsistent = true;
  private client: Stripe | undefined;

  constructor(
    /** The secret key, or where to read it on each call (a function without the secret fails only if it is called). */
    private readonly apiKey: string | (() => string),
    /** Stripe itself when absent; a Stripe-compatible fake PSP for local runs and tests. */
    private readonly endpoint: StripeEndpoint = {},
    /** Our clock, which attempt windows are on (the local stack moves it forward, and the fake PSP with it). */
    private readonly clock: Clock = sharedClock,
    /**
     * The deployment's name on a Stripe account several stages share (DEPLOYMENT_NAME): from body version 2 it is in
     * every object's metadata and prefixes every key, so that two stages never replay each other's saved results.
     */
    private readonly deployment?: string,
  ) {}

  async charge(key: string, params: ChargeParams, timeoutMs: number, origin?: PspOrigin): Promise<PspReply> {
    const { stripe, apiKey } = this.use();
    const sent = stripeKeyOf(key, params.bodyVersion, this.deployment);
    try {
      const res = await timed(timeoutMs, (t) =>
        stripe.paymentIntents.create(
          createBodyOf(params, this.deployment),
          requestOptions(apiKey, t, origin, sent),
        ),
      );
      return res.kind === "unknown" ? res : intentReply(res.value);
    } catch (err) {
      return chargeErrorReply(err, sent);
    }
  }

  /**
   * Refunds the PaymentIntent `charge` (the id a charge answered) under the derived refund key, with the body (and
   * key prefix) of the payment's stamped version, as its charge.
   */
  async refund(
    key: string,
    charge: string,
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
    bodyVersion?: number,
  ): Promise<PspReply> {
    const { stripe, apiKey } = this.use();
    const create = refundBodyOf(charge, reference, bodyVersion, this.deployment);
    const sent = stripeKeyOf(key, bodyVersion, this.deployment);
    try {
      const res = await timed(timeoutMs, (t) =>
        stripe.refunds.create(create, requestOptions(apiKey, t, origin, sent)),
      );
      return res.kind === "unknown" ? res : refundReply(res.value);
    } catch (err) {
      return refundErrorReply(err, sent);
    }
  }

  /** Reads the PaymentIntent `id` (consistent) with its latest charge, for an intent Stripe had not finished. */
  readCharge(id: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply> {
    return retrieveFresh(this.lookupCall(timeoutMs, origin), id);
  }

  /**
   * Looks a charge up by our reference within the windows it can have been sent in (`lookup.windows`, our clock);
   * without any, the last two hours (DEFAULT_LOOKBACK_MS, and why that is safe, in stripe-lookup). Every request
   * passes `lookup.gate`, and a list that cannot finish goes on from `lookup.cursor` the next time.
   */
  findCharge(
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
    lookup?: ChargeLookup,
  ): Promise<PspReply> {
    return findChargeByReference(
      { ...this.lookupCall(timeoutMs, origin), gate: lookup?.gate },
      reference,
      lookup,
    );
  }

  /** Lists the refunds of the PaymentIntent `charge`, every page. */
  findRefund(charge: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply> {
    return findRefundOf(this.lookupCall(timeoutMs, origin), charge);
  }

  /** Reads the refund `refundId` by its id (consistent), for a refund Stripe accepted but had not finished. */
  readRefund(refundId: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply> {
    return readRefundById(this.lookupCall(timeoutMs, origin), refundId);
  }

  private lookupCall(timeoutMs: number, origin?: PspOrigin): LookupCall {
    const { stripe, apiKey } = this.use();
    const untilMs = Date.now() + timeoutMs;
    return { stripe, apiKey, origin, clock: this.clock, untilMs, deployment: this.deployment };
  }

  // The client is made on first use with the key then read; a key read on use is also named on every request,
  // so that a rotated secret takes effect at once.
  private use(): { stripe: Stripe; apiKey: string | undefined } {
    const key = typeof this.apiKey === "function" ? this.apiKey() : this.apiKey;
    this.client ??= createStripeClient(key, this.endpoint);
    return { stripe: this.client, apiKey: typeof this.apiKey === "function" ? key : undefined };
  }
}
