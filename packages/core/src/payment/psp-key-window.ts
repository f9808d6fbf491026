import type { PaymentDeps } from "./payment-deps";

/** Margin before the end of the PSP's key window: past it, a replay could reach a PSP that forgot the key. */
const KEY_WINDOW_MARGIN_MS = 60 * 60 * 1000;

/**
 * Whether a key first sent at `sentAtMs` may already be forgotten by the PSP, so that replaying it
 * would be a new request: then the charge or refund is looked up instead (Part 1).
 */
export function pastPspKeyWindow(deps: PaymentDeps, sentAtMs: number): boolean {
  return deps.clock.now() - sentAtMs > deps.config.pspKeyWindowS * 1000 - KEY_WINDOW_MARGIN_MS;
}
