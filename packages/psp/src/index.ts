export { DECLINED_PAYMENT_METHOD } from "./charge-routes";
export type { Dialect } from "./dialect-name";
export type { PspEvent, PspEventType, WebhookEvent } from "./events";
export type { ChargeSummary, RefundSummary } from "./ledger";
export type {
  FakePsp,
  FakePspOptions,
  PspFaultName,
  RateLimits,
  WebhookDelivery,
  WebhookRetry,
} from "./options";
export { STRIPE_LIVE_WEBHOOK_RETRY, STRIPE_SANDBOX_WEBHOOK_RETRY } from "./options";
export { createRandom, type Random } from "./random";
export { DEFAULT_ACCOUNT } from "./router";
export { startFakePsp } from "./server";
export { type SignatureCheck, signWebhook, verifyWebhookSignature } from "./signature";
export { type Origin, originOf, type PspStats } from "./stats";
export type { IntentSeed } from "./stripe/intent-seed";
export { DECLINING_TEST_CARDS } from "./stripe/payment-intent-create";
export type { StripeEvent, StripeEventType } from "./stripe/stripe-events";
export {
  STRIPE_API_VERSION,
  type StripeCharge,
  type StripeIntent,
  type StripeRefund,
} from "./stripe/stripe-objects";
