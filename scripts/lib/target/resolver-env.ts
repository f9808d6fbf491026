import type { RegionRole } from "@eo/core";
import type { PspAccess } from "./psp-access";
import type { Target } from "./target";

/**
 * The environment the target Region's resolver function runs with (the names stacks/functions.ts sets), so that a
 * run by hand reads the same tables, the same authority, the same claim mode and the same tunables (its PSP budget
 * shares the function's buckets, so it must count with the same rates). Locally also the emulators' endpoints.
 */
export function resolverEnvironment(t: Target, role: RegionRole, psp: PspAccess): Record<string, string> {
  const r = t.regions[role];
  // The authority is read where it lives: in the Region's own replica (MRSC), or in its one Region.
  const controlRegion = t.authority.mode === "single-region" ? t.authority.regions[0] : undefined;
  return {
    ...t.tunables,
    AWS_REGION: r.region,
    REGION_ROLE: role,
    CLAIM_MODE: t.claimMode,
    CONTROL_TABLE: r.control,
    ...(controlRegion ? { CONTROL_TABLE_REGION: controlRegion } : {}),
    CLAIM_TABLE: r.claims,
    LEDGER_TABLE: r.ledger,
    CONSUMER_TABLE: r.consumer,
    EVENTS_QUEUE_URL: r.eventsQueue,
    PSP: psp.psp,
    PSP_URL: psp.url,
    // The key under the name the dialect's config reads (packages/core psp-secrets.ts).
    [psp.psp === "stripe" ? "STRIPE_SECRET_KEY" : "PSP_API_KEY"]: psp.apiKey,
    ...(t.local ? localOnly(t, role) : {}),
  };
}

/** The emulators' endpoints and credentials, and the local stack's one MRSC claim store (the primary's database). */
function localOnly(t: Target, role: RegionRole): Record<string, string> {
  const local = t.local as NonNullable<Target["local"]>;
  return {
    AWS_ENDPOINT_URL_DYNAMODB: local.dynamodb,
    AWS_ENDPOINT_URL_SQS: local.sqs,
    AWS_ACCESS_KEY_ID: "local",
    AWS_SECRET_ACCESS_KEY: "local",
    ...(t.claimMode === "mrsc" && role === "standby" ? { CLAIM_TABLE_REGION: t.regions.primary.region } : {}),
  };
}
