import type { Classifier, Op, RequestItem } from "./cost-meter";

/** The steps of a payment's life, in the order the tables print them. */
export const STEPS = [
  "claim",
  "psp budget",
  "region fence",
  "guard",
  "settle",
  "completion",
  "reads",
  "webhook",
  "relay",
  "inbox",
  "intents",
  "sends",
  "stream job",
  "other",
] as const;

/** The tables a payment touches, by their role. */
export interface PaymentTables {
  claim: string;
  ledger: string;
  consumer: string;
  control: string;
  totals: string;
}

/** Names each request's step from its table and item key, as the design's words name them. */
export function paymentSteps(t: PaymentTables): Classifier {
  return (table, key, op, request) => {
    if (table === t.claim) return claimStep(String(key.id ?? ""), op);
    if (table === t.ledger) return ledgerStep(String(key.pk ?? ""), String(key.sk ?? ""), op, request);
    if (table === t.consumer) return consumerStep(String(key.pk ?? ""), String(key.sk ?? ""), op);
    if (table === t.control) return "region fence";
    if (table === t.totals) return "stream job";
    return "other";
  };
}

function claimStep(id: string, op: Op): string {
  if (id.startsWith("BUDGET#")) return "psp budget";
  return op === "put" || op === "read" ? "claim" : "completion";
}

function ledgerStep(pk: string, sk: string, op: Op, request: readonly RequestItem[]): string {
  // The locator is written with the row (the guard) and moves with it (settle).
  if (pk.startsWith("LOC#")) return op === "read" ? "reads" : op === "put" ? "guard" : "settle";
  if (pk.startsWith("WHIN#")) return "webhook";
  if (pk.startsWith("OUTBOX#")) return op === "put" ? "settle" : "relay";
  // The row is put whole both when it is inserted with its locator (the guard) and when it moves (the settle).
  if (pk.startsWith("PAY#") && sk === "PAYMENT")
    return op === "put" && request.some((r) => String(r.key.pk ?? "").startsWith("LOC#"))
      ? "guard"
      : op === "read"
        ? "reads"
        : "settle";
  // A journal entry is written by the settle and carries its event; the relay takes the event off it.
  if (sk.startsWith("JOURNAL#")) return op === "update" ? "relay" : "settle";
  return op === "read" ? "reads" : "other";
}

function consumerStep(pk: string, sk: string, op: Op): string {
  // The event's record is its inbox entry, its credit or debit and its intents at once: put once (the inbox
  // step); each intent's end is a mark item beside it, put by the sends.
  if (sk.startsWith("CREDIT#") || sk.startsWith("DEBIT#")) return op === "put" ? "inbox" : "sends";
  if (sk.startsWith("MARK#")) return "sends";
  if (pk.startsWith("DEDUP#") || pk.startsWith("CAP#")) return "intents";
  if (pk.startsWith("DEVICE#") || pk.startsWith("DEVTOKEN#")) return "sends";
  return "other";
}
