import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { documentClient } from "../aws/document-client";
import { type AppConfig, loadConfig, type PspDialect } from "../config/config";
import { ledgerPayments } from "./dynamo-ledger-payments";
import { pspCharges } from "./http-psp-charges";
import type { ReconcileSources } from "./reconcile-sources";
import { stripePspCharges } from "./stripe-psp-charges";

/** Where the two sides are: the ledger table and the PSP, with the key the PSP's list API wants. */
export interface ReconcileSourceParts {
  db: DynamoDBDocumentClient;
  ledgerTable: string;
  pspUrl: string;
  /** Read when the PSP is listed, so that a function without the linked key fails only then. */
  apiKey: () => string;
  /** The PSP's dialect (default generic): Stripe's PaymentIntents through its SDK, or the generic charge list. */
  psp?: PspDialect;
}

/** The reconciliation's sources on the PSP's list API (generic or Stripe's) and a scan of the ledger table. */
export function reconcileSources(parts: ReconcileSourceParts): ReconcileSources {
  const list = parts.psp === "stripe" ? stripePspCharges : pspCharges;
  return {
    charges: (sinceS, progress) => list(parts.pspUrl, parts.apiKey(), sinceS, progress),
    payments: (sinceMs, progress) => ledgerPayments(parts.db, parts.ledgerTable, sinceMs, progress),
  };
}

/** The sources a handler reconciles with, from its environment (the PSP key through its SST link). */
export function reconcileDeps(config: AppConfig = loadConfig()): ReconcileSources {
  return reconcileSources({
    db: documentClient(),
    ledgerTable: config.ledgerTable,
    pspUrl: config.pspUrl,
    apiKey: () => config.pspApiKey,
    psp: config.psp,
  });
}
