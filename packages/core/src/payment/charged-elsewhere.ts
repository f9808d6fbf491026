import { withinBudget } from "../psp-budget/within-budget";
import type { PaymentDeps } from "./payment-deps";
import { unsafeVoidWithoutPspLookup } from "./payment-test-switches";
import { maxWaitOf } from "./replay-charge";

/**
 * What the PSP holds for a payment this Region has no trace of: before a resolve voids an absent key, the PSP
 * is asked by our reference. With one Region the locator alone proves absence; after a forced
 * failover it does not, since the old Region's last second (its claim, locator and PSP call) never replicated.
 * Voiding then would tell the app "make a new key" for a key the PSP charged: a second charge (found by the
 * fault checker). Only a lookup that found nothing lets the void go on (undefined). A charge answers SUCCEEDED
 * and a decline FAILED, as the old Region told the app; an unknown answers PROCESSING, and the app keeps
 * waiting or retries the same key. The row itself comes with the old Region's recovery or that retry.
 */
export async function chargeAtPsp(
  deps: PaymentDeps,
  paymentId: string,
): Promise<"SUCCEEDED" | "FAILED" | "PROCESSING" | undefined> {
  if (unsafeVoidWithoutPspLookup()) return undefined;
  const untilMs = deps.clock.now() + deps.config.deadlineMs;
  const reply = await withinBudget(
    deps.pspBudget,
    deps.clock,
    { endpoint: "GET /v1/charges", origin: "live", untilMs, maxWaitMs: maxWaitOf(deps, "live") },
    (t) => deps.psp.findCharge(paymentId, t, "live"),
  );
  if (reply.kind === "not-found") return undefined;
  // A charge refunded since still went through: the app must not pay again with a new key (resolve has no REFUNDED).
  if (reply.kind === "done") return "SUCCEEDED";
  return reply.kind === "declined" ? "FAILED" : "PROCESSING";
}
