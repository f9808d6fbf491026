import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { documentClient, isConditionFailure } from "../aws/document-client";
import { paymentIdFromPspKey } from "../ids/derive-ids";
import { webhookInboxKey } from "../ledger/ledger-items";
import type { Move } from "../ledger/ledger-port";
import type { PaymentDeps } from "./payment-deps";
import { Refusal } from "./payment-errors";

/** A PSP webhook event as the contract describes it. */
export interface PspEvent {
  id: string;
  type: "charge.succeeded" | "charge.failed" | "refund.succeeded";
  data: { charge: { id: string; idempotency_key: string; reference: string } };
}

/** Parses an event body, refusing anything that is not the contract's shape. */
export function parsePspEvent(raw: string): PspEvent {
  let e: PspEvent;
  try {
    e = JSON.parse(raw) as PspEvent;
  } catch {
    throw new Refusal("bad-request", "the webhook body is not JSON");
  }
  const ok =
    typeof e?.id === "string" &&
    ["charge.succeeded", "charge.failed", "refund.succeeded"].includes(e.type) &&
    typeof e.data?.charge?.id === "string";
  if (!ok) throw new Refusal("bad-request", "the webhook body is not a PSP event (id, type, data.charge)");
  return e;
}

/**
 * Applies a PSP event at most once: the inbox item keyed by the PSP's event id is written in the
 * same transaction as the allowed move; a late or repeated event is harmless (Part 5).
 */
export async function applyPspEvent(
  deps: PaymentDeps,
  e: PspEvent,
): Promise<{ applied: boolean; duplicate: boolean }> {
  const charge = e.data.charge;
  const paymentId = paymentIdFromPspKey(charge.idempotency_key ?? "") ?? charge.reference;
  const now = deps.clock.now();
  const base = { paymentId, inboxEventId: e.id, now };
  const move: Move =
    e.type === "charge.succeeded"
      ? { ...base, to: "SUCCEEDED", set: { psp_charge: charge.id } }
      : e.type === "charge.failed"
        ? { ...base, to: "FAILED", set: { decline_code: "card_declined" } }
        : { ...base, to: "REFUNDED" };
  const result = await deps.ledger.move(move);
  if (result.moved) return { applied: true, duplicate: false };
  if (result.duplicate) return { applied: false, duplicate: true };
  // Not an allowed move now (already settled, or unknown to us): remember the event all the same.
  return { applied: false, duplicate: !(await rememberEvent(deps, e.id, paymentId, now)) };
}

async function rememberEvent(
  deps: PaymentDeps,
  eventId: string,
  paymentId: string,
  now: number,
): Promise<boolean> {
  try {
    await documentClient().send(
      new PutCommand({
        TableName: deps.config.ledgerTable,
        Item: { ...webhookInboxKey(eventId), payment_id: paymentId, at: now },
        ConditionExpression: "attribute_not_exists(pk)",
      }),
    );
    return true;
  } catch (err) {
    if (isConditionFailure(err)) return false;
    throw err;
  }
}
