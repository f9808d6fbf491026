export { DECLINED_PAYMENT_METHOD } from "./charge-routes";
export type { PspEvent, PspEventType } from "./events";
export type {
  ChargeSummary,
  FakePsp,
  FakePspOptions,
  PspFaultName,
  RateLimits,
  RefundSummary,
  WebhookDelivery,
  WebhookRetry,
} from "./options";
export { createRandom, type Random } from "./random";
export { DEFAULT_ACCOUNT } from "./router";
export { startFakePsp } from "./server";
export { type SignatureCheck, signWebhook, verifyWebhookSignature } from "./signature";
export { type Origin, originOf, type PspStats } from "./stats";
