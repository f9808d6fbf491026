import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { documentClient } from "../aws/document-client";
import { claimContext } from "../claim/claim-context";
import { type PaymentRow, paymentKey } from "../ledger/ledger-items";
import { PSP_BODY_VERSION } from "../psp/psp-port";
import type { ChargePayload } from "./charge-payload";
import type { PaymentDeps } from "./payment-deps";
import { KeyVoided, Refusal } from "./payment-errors";

/**
 * Writes the payment row and its locator before any PSP call (Part 3, step 3). On a conflict the
 * row already there answers: a VOID locator is 409 (KeyVoided, with the tombstone's epoch), another fingerprint is 422.
 */
export async function placeDurableGuard(
  deps: PaymentDeps,
  p: ChargePayload,
): Promise<{ row: PaymentRow; existing: boolean }> {
  const now = deps.clock.now();
  const row: PaymentRow = {
    payment_id: p.payment_id,
    caller: p.caller,
    client_key: p.key,
    fingerprint: p.fingerprint,
    ...p.request,
    email: p.email,
    state: "PENDING",
    // The first send's record, in the guard's own write: the charge goes within a deadline of it (psp-sends.ts).
    psp_sends: [now],
    // Every replay of this payment's keys sends the bodies of this version, whatever a later deploy sends.
    body_version: PSP_BODY_VERSION,
    created_at: now,
    updated_at: now,
  };
  if (process.env.EO_TEST_UNSAFE_NO_DURABLE_GUARD === "1")
    return { row: await branchX(deps, row), existing: false };
  const taken = claimContext().durableRow;
  if (taken) return answerFrom(taken.fingerprint, p, taken);
  const r = await deps.ledger.insertPending(row);
  if (r.inserted) return { row, existing: false };
  if (r.locator.state === "VOID") throw new KeyVoided(r.locator.epoch);
  if (!r.payment) throw new Error(`locator for ${p.payment_id} names no payment row`);
  return answerFrom(r.locator.fingerprint, p, r.payment);
}

// A row already there answers the request, unless it was made for another request with this key.
function answerFrom(fingerprint: string | undefined, p: ChargePayload, row: PaymentRow) {
  if (fingerprint !== p.fingerprint) {
    throw new Refusal(
      "fingerprint-mismatch",
      "this Idempotency-Key was used with a different request; nothing ran",
    );
  }
  return { row, existing: true };
}

// Branch X (Part 4), a test-only switch: no locator and a random payment id, so that a test can
// show the double charge the durable guard prevents. Never set outside tests.
async function branchX(deps: PaymentDeps, row: PaymentRow): Promise<PaymentRow> {
  const unguarded = { ...row, payment_id: `pay_${randomUUID().replaceAll("-", "")}` };
  await documentClient().send(
    new PutCommand({
      TableName: deps.config.ledgerTable,
      Item: { ...paymentKey(unguarded.payment_id), ...unguarded },
    }),
  );
  return unguarded;
}
