import type { LocalStack } from "./start-stack";

/** What `npm start` prints once the stack is up: where everything is, and which PSP it calls (fake or real). */
export function startBanner(stack: LocalStack, startedInS: number, token: string): string {
  const { endpoints, regions } = stack.emulators;
  return `ready in ${startedInS.toFixed(1)} s
  API (primary)  ${stack.apiUrl}            (health: ${stack.apiUrl}/_local/health; Regions: /_local/regions)
  API (standby)  ${stack.standbyUrl ?? "off (LOCAL_STANDBY=off)"}            (passive until a failover: npm run failover -- --local --to standby)
  API reference  ${stack.apiUrl}/_local/docs   (raw: /_local/openapi.yaml, /_local/openapi.json)
  On-call console ${stack.apiUrl}/_local/console   (both Regions, refreshes itself; JSON: /_local/console/state)
${pspLine(stack)}
  DynamoDB Local ${endpoints.dynamodb}   (Regions ${regions.primary.region}, ${regions.standby.region})
  SQS/SNS        ${endpoints.sqs}   (fauxqs)
  SES v2         ${endpoints.ses}   (aws-ses-v2-local)
a token for caller u1 (1 h):
  ${token}
Ctrl-C stops everything.`;
}

// A real PSP is said loudly: its charges are real test-mode objects, the PSP faults and the clock do not reach it,
// and its webhooks arrive only if something forwards them.
function pspLine(stack: LocalStack): string {
  const dialect =
    stack.pspDialect === "stripe" ? "stripe, through Stripe's SDK" : "generic; PSP=stripe for Stripe's";
  if (!stack.externalPspUrl)
    return `  fake PSP       ${stack.psp.url}   (dialect ${dialect}; webhooks to ${stack.webhookPath})`;
  const forward =
    stack.pspDialect === "stripe"
      ? `stripe listen --forward-to ${stack.apiUrl}${stack.webhookPath} (and STRIPE_WEBHOOK_SECRET=its whsec_…)`
      : `point its webhooks at ${stack.apiUrl}${stack.webhookPath}`;
  return `  REAL PSP       ${stack.externalPspUrl}   (PSP_URL; dialect ${dialect}; no fake PSP started)
                 webhooks: ${forward}
                 the PSP faults, /_local/psp/* and /_local/clock do not reach it`;
}
