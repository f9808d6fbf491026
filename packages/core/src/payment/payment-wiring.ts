import { claimDocumentClient, documentClient } from "../aws/document-client";
import { ClaimStore } from "../claim/claim-store";
import { clock } from "../clock/clock";
import { type AppConfig, loadConfig } from "../config/config";
import { DynamoLedger } from "../ledger/dynamo-ledger";
import { pspPortOf } from "../psp/psp-of-dialect";
import { DynamoPspBudget } from "../psp-budget/dynamo-psp-budget";
import { DynamoSlotBookings } from "../psp-budget/dynamo-slot-bookings";
import { fencedLedger } from "../region/fenced-ledger";
import { regionGate } from "../region/region-wiring";
import type { PaymentDeps } from "./payment-deps";

let deps: PaymentDeps | undefined;

/** The payment operations' ports on DynamoDB and the stage's PSP (Stripe or generic), built once per process from the environment. */
export function paymentDeps(config: AppConfig = loadConfig()): PaymentDeps {
  const claimDb = () => claimDocumentClient(config.claimRegion, config.claimMode === "mrsc");
  deps ??= {
    // Every ledger write is fenced by the Region control, so a Region that was failed away from stops writing.
    ledger: fencedLedger(
      new DynamoLedger(documentClient(), config.ledgerTable, config.regionRole),
      regionGate(config),
    ),
    claims: new ClaimStore(claimDb(), config.claimTable, {
      windowS: config.keyWindowS,
      takeoverMarginMs: config.takeoverMarginMs,
      clock,
    }),
    // The stage's dialect (PSP=stripe|generic) picks the adapter: Stripe's SDK, or the generic HTTP client.
    psp: pspPortOf({
      psp: config.psp,
      pspUrl: config.pspUrl,
      apiKey: () => config.pspApiKey,
      deployment: config.deployment,
    }),
    // The budget's buckets live beside the claims: one table per Region that calls the PSP, or the shared one.
    pspBudget: new DynamoPspBudget(claimDb(), config.claimTable, budgetRatesOf(config), clock),
    slotBookings: new DynamoSlotBookings(claimDb(), config.claimTable, () => clock.now()),
    config,
    clock,
  };
  return deps;
}

function budgetRatesOf(config: AppConfig) {
  return {
    accountPerS: config.pspRatePerS,
    endpointPerS: config.pspEndpointRatePerS,
    resolverPerS: config.resolverRatePerS,
  };
}
