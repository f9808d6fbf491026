import { type PspDialect, stripeEndpointOf } from "../config/psp-dialect";
import { HttpPsp } from "./http-psp";
import type { PspPort } from "./psp-port";
import { StripePsp } from "./stripe-psp";

/** Where a PSP port reaches its PSP: the stage's dialect, its URL, and the key read on each call. */
export interface PspTarget {
  psp: PspDialect;
  pspUrl: string;
  apiKey: string | (() => string);
  /** The deployment's name on a Stripe account that several stages share (DEPLOYMENT_NAME), if it has one. */
  deployment?: string;
}

/**
 * The PSP port of a stage: the Stripe SDK's adapter on a Stripe stage (pointed at PSP_URL's host, port and protocol:
 * Stripe's API, or the local fake speaking its dialect), else the HTTP client of the generic dialect. Every place that
 * calls the PSP builds its port here, so that no path of a Stripe stage speaks the other dialect.
 */
export function pspPortOf(target: PspTarget): PspPort {
  if (target.psp === "stripe")
    return new StripePsp(target.apiKey, stripeEndpointOf(target.pspUrl), undefined, target.deployment);
  return new HttpPsp(target.pspUrl, target.apiKey);
}
