import type { RegionRole } from "@eo/core";
import { authorityRegion, CONTROL_TABLE } from "../region/control-table";
import { LOCAL_CREDENTIALS } from "./regions";
import type { Emulators } from "./start-emulators";

/**
 * The environment one Region's handlers read, as the SST stacks set it in AWS, plus the SDK's per-service
 * endpoint variables that point the same clients at the emulators. Which Region is active is not in it: that
 * is the Region control, data that the failover script changes.
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
    PSP_API_KEY: process.env.PSP_API_KEY ?? "sk_local",
    PSP_WEBHOOK_SECRET: process.env.PSP_WEBHOOK_SECRET ?? "whsec_local",
    POWERTOOLS_SERVICE_NAME: "effectively-once",
    POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? process.env.LOG_LEVEL ?? "WARN",
    POWERTOOLS_METRICS_NAMESPACE: "EffectivelyOnce",
    POWERTOOLS_DEV: "true",
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true",
  };
}
