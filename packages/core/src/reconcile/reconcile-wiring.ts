import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { documentClient } from "../aws/document-client";
import { type AppConfig, loadConfig } from "../config/config";
import { ledgerPayments } from "./dynamo-ledger-payments";
import { pspCharges } from "./http-psp-charges";
import type { ReconcileSources } from "./reconcile-sources";

/** Where the two sides are: the ledger table and the PSP, with the key the PSP's list API wants. */
export interface ReconcileSourceParts {
  db: DynamoDBDocumentClient;
  ledgerTable: string;
  pspUrl: string;
  /** Read when the PSP is listed, so that a function without the linked key fails only then. */
  apiKey: () => string;
}

/** The reconciliation's sources on the PSP's HTTP list API and a scan of the ledger table. */
export function reconcileSources(parts: ReconcileSourceParts): ReconcileSources {
  return {
    charges: (sinceS, progress) => pspCharges(parts.pspUrl, parts.apiKey(), sinceS, progress),
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
  });
}
