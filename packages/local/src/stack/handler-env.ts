import {
  type LinkedResources,
  PSP_SECRETS,
  type PspDialect,
  pspDialectOf,
  type RegionRole,
  secretOfRole,
} from "@eo/core";
import type { HandlerSpec } from "../../../../stacks/handlers";
import { authorityRegion, CONTROL_TABLE } from "../region/control-table";
import { LOCAL_CREDENTIALS } from "./regions";
import type { Emulators } from "./start-emulators";

/**
 * The environment one Region's handlers read, as the SST stacks set it in AWS (one plain environment for every
 * function of a Region, stacks/functions.ts), plus the SDK's per-service endpoint variables that point the same
 * clients at the emulators. Which Region is active is not in it: that is the Region control, data that the failover
 * script changes. No secret is in it either: a handler gets one only through its links (`handlerLinks`).
 */
export function regionHandlerEnv(
  emu: Pick<Emulators, "endpoints" | "regions">,
  role: RegionRole,
  pspUrl: string,
  pushUrl?: string,
  authorityLink?: string,
): Record<string, string> {
  const r = emu.regions[role];
  return {
    AWS_REGION: r.region,
    AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
    AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
    AWS_ENDPOINT_URL_DYNAMODB: emu.endpoints.dynamodb,
    AWS_ENDPOINT_URL_SQS: emu.endpoints.sqs,
    AWS_ENDPOINT_URL_SESV2: emu.endpoints.ses,
    ...(pushUrl ? { AWS_ENDPOINT_URL_SNS: pushUrl } : {}),
    // The authority lives outside both Regions (the witness's database), reached through this Region's link.
    CONTROL_TABLE: CONTROL_TABLE,
    CONTROL_TABLE_REGION: authorityRegion(),
    ...(authorityLink ? { CONTROL_ENDPOINT_URL: authorityLink } : {}),
    CLAIM_TABLE: r.claimTable,
    LEDGER_TABLE: r.ledgerTable,
    CONSUMER_TABLE: r.consumerTable,
    TOTALS_TABLE: r.totalsTable,
    EVENTS_QUEUE_URL: r.queues.events,
    EVENTS_DLQ_URL: r.queues.eventsDlq,
    STREAM_JOB_FAILURES_QUEUE_URL: r.queues.streamJobFailures,
    // Where a passive Region's worker hands events over: the other Region's queue.
    PEER_EVENTS_QUEUE_URL: emu.regions[role === "primary" ? "standby" : "primary"].queues.events,
    // The safety switches have no default in the handlers (they refuse to start without them), so set them here.
    REGION_ROLE: role,
    CLAIM_MODE: process.env.CLAIM_MODE ?? "home",
    // MRSC: one strongly consistent claim store for both Regions (locally, the primary's database).
    ...(process.env.CLAIM_MODE === "mrsc" && role === "standby"
      ? { CLAIM_TABLE_REGION: emu.regions.primary.region }
      : {}),
    PSP_URL: pspUrl,
    // The dialect the stack's fake PSP speaks (startLocalStack sets it, from PSP): which adapter the handlers build.
    PSP: pspDialectOf(process.env),
    // Unset by default (keys exactly as the contract derives them); set it when npm start shares a Stripe test-mode
    // account with deployed stages (docs/deploying.md, several stages on one Stripe account).
    ...(process.env.DEPLOYMENT_NAME ? { DEPLOYMENT_NAME: process.env.DEPLOYMENT_NAME } : {}),
    POWERTOOLS_SERVICE_NAME: "effectively-once",
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? process.env.LOG_LEVEL ?? "WARN",
    POWERTOOLS_METRICS_NAMESPACE: "EffectivelyOnce",
    POWERTOOLS_DEV: "true",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}

/** The local values of the app's linkable secrets by SST name: what `sst secret set` holds for a deployed stage. */
export type LocalSecrets = Record<string, string>;

/**
 * The local stack's secret values: PSP_API_KEY, PSP_WEBHOOK_SECRET, STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET
 * from the environment, else the local defaults. Both dialects' are there, whichever the stack speaks, so that each
 * webhook route can be exercised locally (a deployed stage declares its own dialect's only).
 */
export function localSecrets(env: NodeJS.ProcessEnv = process.env): LocalSecrets {
  return {
    [PSP_SECRETS.apiKey.link]: env.PSP_API_KEY ?? "sk_local",
    [PSP_SECRETS.webhookSecret.link]: env.PSP_WEBHOOK_SECRET ?? "whsec_local",
    [PSP_SECRETS.stripeSecretKey.link]: env.STRIPE_SECRET_KEY ?? "sk_test_local",
    [PSP_SECRETS.stripeWebhookSecret.link]: env.STRIPE_WEBHOOK_SECRET ?? "whsec_local_stripe",
  };
}

/**
 * The links one handler's invocations carry, from its entry in stacks/handlers.ts as stacks/functions.ts links it in
 * AWS: the PSP secret it declares (`access.pspSecret`; the API key of the stack's dialect), and no other. A handler
 * that calls the PSP without declaring the key fails here as it would in AWS.
 */
export function handlerLinks(
  spec: Pick<HandlerSpec, "access">,
  secrets: LocalSecrets,
  dialect: PspDialect = pspDialectOf(process.env),
): LinkedResources {
  const declared = spec.access.pspSecret;
  if (!declared) return {};
  const { link } = PSP_SECRETS[secretOfRole(declared, dialect)];
  const value = secrets[link];
  if (value === undefined) throw new Error(`no local value for the secret ${link}`);
  return { [link]: { value } };
}

/**
 * The PSP secrets as plain variables, for an operator's script run with a Region's environment (resolve-unknowns,
 * reconcile): the operator's own copy, as `sst shell` hands one. No handler invocation reads these variables.
 */
export function operatorSecretsEnv(secrets: LocalSecrets): Record<string, string> {
  return {
    [PSP_SECRETS.apiKey.env]: secrets[PSP_SECRETS.apiKey.link] ?? "",
    [PSP_SECRETS.webhookSecret.env]: secrets[PSP_SECRETS.webhookSecret.link] ?? "",
    [PSP_SECRETS.stripeSecretKey.env]: secrets[PSP_SECRETS.stripeSecretKey.link] ?? "",
    [PSP_SECRETS.stripeWebhookSecret.env]: secrets[PSP_SECRETS.stripeWebhookSecret.link] ?? "",
  };
}
