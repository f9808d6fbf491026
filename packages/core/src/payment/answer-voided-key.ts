import type { PaymentRow } from "../ledger/ledger-items";
import type { ChargePayload } from "./charge-payload";
import { type ChargeFound, chargedSinceVoid, type EpochContext } from "./charged-elsewhere";
import type { PaymentDeps } from "./payment-deps";
import type { KeyVoided } from "./payment-errors";
import { unsafeTrustInheritedVoidOnPay } from "./payment-test-switches";
import { type Rendered, renderFinal, renderPayment, renderProcessing } from "./render-payment";

/**
 * Answers a POST /payments whose key is voided: 409 key-voided, unless the void is of an earlier Region epoch
 * than today's and the PSP holds something for our reference, which then answers as the payment (202 PROCESSING
 * while its "nothing" may be a lagging lookup, issue 40).
 */
export async function answerVoidedKey(
  deps: PaymentDeps,
  p: ChargePayload,
  voided: KeyVoided,
  context: EpochContext,
): Promise<Rendered> {
  // An app may make a new key on a 409 key-voided: after two failovers the key may have been charged in the
  // other Region while this void was unshipped, and the new key would charge the order again.
  if (unsafeTrustInheritedVoidOnPay()) throw voided;
  const found = await chargedSinceVoid(deps, p.payment_id, voided.voidEpoch, context);
  if (!found) throw voided;
  const answer = renderPayment(rowOf(deps, p, found));
  // Nothing ran for this request: the charge is an earlier attempt's, so its answer is a replay.
  if (answer.kind === "final") return renderFinal(answer, true);
  const processing = renderProcessing(p.payment_id);
  // A "nothing charged" not final yet (a lookup that may lag) says when it will be.
  const retryAfterS = found.state === "PROCESSING" ? found.retryAfterS : undefined;
  return retryAfterS ? { ...processing, headers: { "retry-after": String(retryAfterS) } } : processing;
}

// The payment as the PSP and this request describe it: the Region that charged it holds the row, and this one
// renders the contract's answer from what it knows, writing nothing (as resolve does).
function rowOf(deps: PaymentDeps, p: ChargePayload, found: ChargeFound): PaymentRow {
  const now = deps.clock.now();
  return {
    payment_id: p.payment_id,
    caller: p.caller,
    client_key: p.key,
    fingerprint: p.fingerprint,
    ...p.request,
    state: found.state === "PROCESSING" ? "UNKNOWN" : found.state,
    psp_charge: found.state === "PROCESSING" ? undefined : found.psp_charge,
    decline_code: found.state === "FAILED" ? found.decline_code : undefined,
    created_at: now,
    updated_at: now,
  };
}
