import type { PaymentDeps } from "./payment-deps";
import { RETRY_AFTER_S } from "./render-payment";

/** What an operation knows of the epoch the authority names now: its number and when its Region began to act. */
export interface EpochNow {
  epoch: number;
  /** Wall time (ms) from which the active Region acts; absent: at once (a deployment that never failed over). */
  active_from?: number;
}

/** The longest Retry-After a resolve waiting for a "not found" to become final asks for. */
const MAX_RETRY_AFTER_S = 30;

/**
 * EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND=1 takes one lookup that found nothing as final at once whatever the PSP's
 * lookup is, as before issue 40: after a forced failover a key the old Region charged, while the PSP's index lags,
 * is voided, and the app's new key charges the order a second time.
 */
export const unsafeVoidOnLaggingNotFound = (): boolean =>
  process.env.EO_TEST_UNSAFE_VOID_ON_LAGGING_NOT_FOUND === "1";

/**
 * When a lookup by our reference that found nothing proves no charge: at once where the PSP's lookup is
 * read-after-write consistent; otherwise only once the not-found settle time has passed since the active epoch began.
 */
export function notFoundFinalAt(deps: PaymentDeps, control: EpochNow | undefined): number {
  if (deps.psp.lookupConsistent || unsafeVoidOnLaggingNotFound()) return 0;
  // A Region with no trace of the key cannot know when it was first sent: the old Region may have charged it up to
  // the moment it stopped acting, which is no later than this epoch's start. Without a start, nothing failed over
  // and the absent locator alone proves the key was never sent here.
  const from = control?.active_from;
  return from === undefined ? 0 : from + deps.config.pspNotFoundSettleS * 1000;
}

/** How long an app is told to wait before it asks again about a "not found" that is not yet final. */
export function retryAfterSUntil(finalAtMs: number, now: number): number {
  const s = Math.ceil((finalAtMs - now) / 1000);
  return Math.min(MAX_RETRY_AFTER_S, Math.max(RETRY_AFTER_S, s));
}
