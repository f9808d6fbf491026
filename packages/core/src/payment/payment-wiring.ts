import { claimDocumentClient, documentClient } from "../aws/document-client";
import { ClaimStore } from "../claim/claim-store";
import { clock } from "../clock/clock";
import { type AppConfig, loadConfig } from "../config/config";
import { DynamoLedger } from "../ledger/dynamo-ledger";
import { HttpPsp } from "../psp/http-psp";
import { RateCap } from "../rate/rate-cap";
import { fencedLedger } from "../region/fenced-ledger";
import { regionGate } from "../region/region-wiring";
import type { PaymentDeps } from "./payment-deps";

let deps: PaymentDeps | undefined;

/** The payment operations' ports on DynamoDB and the HTTP PSP, built once per process from the environment. */
export function paymentDeps(config: AppConfig = loadConfig()): PaymentDeps {
  deps ??= {
    // Every ledger write is fenced by the Region control, so a Region that was failed away from stops writing.
    ledger: fencedLedger(
      new DynamoLedger(documentClient(), config.ledgerTable, config.regionRole),
      regionGate(config),
    ),
    claims: new ClaimStore(
      claimDocumentClient(config.claimRegion, config.claimMode === "mrsc"),
      config.claimTable,
      {
        windowS: config.keyWindowS,
        takeoverMarginMs: config.takeoverMarginMs,
        clock,
      },
    ),
    psp: new HttpPsp(config.pspUrl, () => config.pspApiKey),
    config,
    clock,
  };
  return deps;
}

/** The resolver's own PSP rate cap, shared by all its invocations through the claim table. */
export function resolverRateCap(d: PaymentDeps): RateCap {
  const db = claimDocumentClient(d.config.claimRegion, d.config.claimMode === "mrsc");
  return new RateCap(db, d.config.claimTable, "resolver", d.config.resolverRatePerS, d.clock);
}
