import { type Access, type HandlerSpec, handlers, type TableAccess } from "./handlers";
import type { RegionContext } from "./region-context";
import type { PspSecrets } from "./secrets";
import type { TableRef } from "./tables";
import { tunableEnvironment } from "./tunable-environment";

/** The Lambda runtime of every handler (the bundle test builds for the same Node.js version). */
export const LAMBDA_RUNTIME = "nodejs22.x";

/**
 * The instruction set of every function. Graviton is billed about 20% below x86_64 per GB-second, and nothing the
 * handler bundles include is native: in package-lock.json the only packages with install scripts are esbuild (a
 * build tool) and @scarf/scarf (swagger-ui-dist's, local console only), and the only prebuilt binaries are build and
 * CLI tools (sst-*, @esbuild/*, @biomejs/*, rolldown, lightningcss), none of which a handler imports.
 */
export const LAMBDA_ARCHITECTURE = "arm64";

/** The trust policy of every function role: assumable by the Lambda service only. */
export const LAMBDA_TRUST_POLICY = JSON.stringify({
  Version: "2012-10-17",
  Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
});

/** DynamoDB data-plane actions of a read-only grant. */
export const TABLE_READ_ACTIONS = [
  "dynamodb:BatchGetItem",
  "dynamodb:ConditionCheckItem",
  "dynamodb:DescribeTable",
  "dynamodb:GetItem",
  "dynamodb:Query",
  "dynamodb:Scan",
];
/** DynamoDB data-plane actions of a read-write grant. */
export const TABLE_WRITE_ACTIONS = [
  ...TABLE_READ_ACTIONS,
  "dynamodb:BatchWriteItem",
  "dynamodb:DeleteItem",
  "dynamodb:PutItem",
  "dynamodb:UpdateItem",
];

/** One Region's functions, by handler id. */
export type RegionFunctions = Record<string, sst.aws.Function>;

/** Creates one function per handler of the manifest on the Region's provider, each with only the access it declares. */
export function createFunctions(ctx: RegionContext): RegionFunctions {
  const links = linkables(ctx);
  const environment = handlerEnvironment(ctx);
  const functions: RegionFunctions = {};
  for (const spec of handlers) {
    functions[spec.id] = new sst.aws.Function(
      `${ctx.prefix}${spec.id}`,
      {
        handler: spec.handler,
        runtime: LAMBDA_RUNTIME,
        architecture: LAMBDA_ARCHITECTURE,
        memory: `${spec.memoryMB} MB`,
        timeout: `${spec.timeoutSeconds} seconds`,
        ...(spec.reservedConcurrency === undefined
          ? {}
          : { concurrency: { reserved: spec.reservedConcurrency } }),
        description: `${ctx.role}: ${spec.handler}`,
        environment,
        link: linksFor(spec.access, links),
        permissions: permissionsFor(spec, ctx),
        // SST 4.17 trusts the account root even outside `sst dev`; deployed roles are for Lambda only.
        transform: $dev ? undefined : { role: { assumeRolePolicy: LAMBDA_TRUST_POLICY } },
      },
      { provider: ctx.provider },
    );
  }
  return functions;
}

/**
 * The plain environment variables every handler reads (the local runtime sets the same names). The PSP's API key
 * and webhook secret are not among them: they are SST secrets linked only to the handlers that declare them.
 */
function handlerEnvironment(ctx: RegionContext): Record<string, $util.Input<string>> {
  const { config, tables, control, queues, peerQueues, pushEmail, secrets } = ctx;
  return {
    CONTROL_TABLE: control.name,
    // Only where the authority is not in the function's own Region (CONTROL_MODE=single-region).
    ...(control.region ? { CONTROL_TABLE_REGION: control.region } : {}),
    CLAIM_TABLE: tables.claims.name,
    LEDGER_TABLE: tables.ledger.name,
    CONSUMER_TABLE: tables.consumer.name,
    TOTALS_TABLE: tables.totals.name,
    EVENTS_QUEUE_URL: queues.events.url,
    // This Region's events DLQ: what a passive Region's sweeps hand over to the other Region's events queue.
    EVENTS_DLQ_URL: queues.eventsDlq.url,
    // Where the stream job describes a batch it gave up on (the recompute command reads it).
    STREAM_JOB_FAILURES_QUEUE_URL: queues.streamJobFailures.url,
    // The other Region's events queue: where a passive Region's worker hands over the events it receives.
    PEER_EVENTS_QUEUE_URL: peerQueues.events.url,
    CLAIM_MODE: config.claimMode,
    // The tunables (and the act window's longest timeout) exactly as the operator scripts read them from the outputs.
    ...tunableEnvironment(config),
    // Names this stage's objects on a Stripe account that other stages may share (metadata, keys, lookups, events).
    DEPLOYMENT_NAME: `${$app.name}-${$app.stage}`,
    // A Stripe stage talks to Stripe's API (the handlers' default for PSP=stripe); a generic one to its secret URL.
    ...(secrets.psp.dialect === "generic" ? { PSP_URL: secrets.psp.pspUrl.value } : {}),
    PUSH_APNS_APP_ARN: pushEmail.apns.arn,
    PUSH_FCM_APP_ARN: pushEmail.fcm.arn,
    EMAIL_FROM: pushEmail.emailFrom,
    REGION_ROLE: ctx.role,
  };
}

type TableName = "claims" | "ledger" | "consumer" | "totals";
type Linkables = Record<`${TableName}:${TableAccess}`, sst.Linkable<{ name: $util.Output<string> }>> & {
  sendEvents: sst.Linkable<{ url: $util.Output<string> }>;
  email: sst.aws.Email;
  /** The stage dialect's API key; each webhook route's signing secret, only on a stage of its dialect. */
  apiKey: sst.Secret;
  webhookSecret?: sst.Secret;
  stripeWebhookSecret?: sst.Secret;
};

/** The Region's links: read or read-write on each table (that Region's replica), sending to the events queue, SES, the PSP secrets. */
function linkables(ctx: RegionContext): Linkables {
  const table = (label: string, ref: TableRef, access: TableAccess) =>
    new sst.Linkable(`${ctx.prefix}${label}${access === "read" ? "Read" : "Write"}`, {
      properties: { name: ref.name },
      include: [
        sst.aws.permission({
          actions: access === "read" ? TABLE_READ_ACTIONS : TABLE_WRITE_ACTIONS,
          resources: [ref.arn, $interpolate`${ref.arn}/index/*`],
        }),
      ],
    });
  const { tables, queues } = ctx;
  return {
    "claims:read": table("Claims", tables.claims, "read"),
    "claims:write": table("Claims", tables.claims, "write"),
    "ledger:read": table("Ledger", tables.ledger, "read"),
    "ledger:write": table("Ledger", tables.ledger, "write"),
    "consumer:read": table("Consumer", tables.consumer, "read"),
    "consumer:write": table("Consumer", tables.consumer, "write"),
    "totals:read": table("Totals", tables.totals, "read"),
    "totals:write": table("Totals", tables.totals, "write"),
    sendEvents: new sst.Linkable(`${ctx.prefix}EventsSend`, {
      properties: { url: queues.events.url },
      include: [
        sst.aws.permission({
          actions: ["sqs:GetQueueAttributes", "sqs:GetQueueUrl", "sqs:SendMessage"],
          resources: [queues.events.arn],
        }),
      ],
    }),
    email: ctx.pushEmail.email,
    ...pspLinkables(ctx.secrets.psp),
  };
}

/**
 * The PSP secrets by what a manifest entry declares: `apiKey` is the stage dialect's key (PspApiKey or
 * StripeSecretKey); a webhook route's signing secret exists only on a stage of its dialect, so the other route's
 * function is linked to nothing (it answers 404 naming the right route, packages/core webhook-secret-of.ts).
 */
function pspLinkables(psp: PspSecrets): Pick<Linkables, "apiKey" | "webhookSecret" | "stripeWebhookSecret"> {
  return psp.dialect === "stripe"
    ? { apiKey: psp.apiKey, stripeWebhookSecret: psp.webhookSecret }
    : { apiKey: psp.apiKey, webhookSecret: psp.webhookSecret };
}

function linksFor(access: Access, links: Linkables): unknown[] {
  const out: unknown[] = [];
  for (const name of ["claims", "ledger", "consumer", "totals"] as const) {
    const level = access[name];
    if (level) out.push(links[`${name}:${level}`]);
  }
  if (access.sendEvents) out.push(links.sendEvents);
  if (access.email) out.push(links.email);
  const secret = access.pspSecret ? links[access.pspSecret] : undefined;
  if (secret) out.push(secret);
  return out;
}

/**
 * Permissions that are not a link: the trigger's own plumbing (queue, stream), the hand-over to the other Region's
 * events queue, draining this Region's events DLQ, and SNS mobile push.
 */
function permissionsFor(spec: HandlerSpec, ctx: RegionContext): sst.aws.FunctionArgs["permissions"] {
  const { access } = spec;
  // Every function reads the authority at run time (whether its Region is active; the fence on writes), and
  // nothing more: only the failover, an operator script with its own credentials, writes it.
  const out: { actions: string[]; resources: $util.Input<string>[] }[] = [
    { actions: ["dynamodb:GetItem"], resources: [ctx.control.arn] },
  ];
  if (access.consumeEvents) {
    out.push({
      actions: [
        "sqs:ChangeMessageVisibility",
        "sqs:DeleteMessage",
        "sqs:GetQueueAttributes",
        "sqs:GetQueueUrl",
        "sqs:ReceiveMessage",
      ],
      resources: [ctx.queues.events.arn],
    });
  }
  if (access.peerEventsQueue === "send") {
    // SendMessage only: the runtime has the peer queue's URL and never reads or receives from it.
    out.push({ actions: ["sqs:SendMessage"], resources: [ctx.peerQueues.events.arn] });
  }
  if (access.eventsDlq === "drain") {
    // This Region's DLQ only: receive each message, keep it invisible while handing it over, delete it once sent.
    out.push({
      actions: [
        "sqs:ChangeMessageVisibility",
        "sqs:DeleteMessage",
        "sqs:GetQueueAttributes",
        "sqs:ReceiveMessage",
      ],
      resources: [ctx.queues.eventsDlq.arn],
    });
  }
  if (access.readLedgerStream) {
    const stream = ctx.tables.ledger.streamArn;
    if (!stream) throw new Error(`${ctx.prefix}: the ledger table has no stream`);
    out.push({
      actions: [
        "dynamodb:DescribeStream",
        "dynamodb:GetRecords",
        "dynamodb:GetShardIterator",
        "dynamodb:ListStreams",
      ],
      resources: [stream],
    });
    // The event source mapping's on-failure destination is written with the function's role.
    out.push({ actions: ["sqs:SendMessage"], resources: [ctx.queues.relayFailures.arn] });
  }
  if (access.streamJobFailures === "send")
    out.push({ actions: ["sqs:SendMessage"], resources: [ctx.queues.streamJobFailures.arn] });
  if (access.push) {
    const { apns, fcm } = ctx.pushEmail;
    const endpoints = [apns.arn, fcm.arn].map((arn) =>
      arn.apply((a) => `${a.replace(":app/", ":endpoint/")}/*`),
    );
    out.push({ actions: ["sns:CreatePlatformEndpoint"], resources: [apns.arn, fcm.arn] });
    out.push({
      actions: [
        "sns:DeleteEndpoint",
        "sns:GetEndpointAttributes",
        "sns:SetEndpointAttributes",
        ...(access.push === "send" ? ["sns:Publish"] : []),
      ],
      resources: endpoints,
    });
  }
  return out;
}
