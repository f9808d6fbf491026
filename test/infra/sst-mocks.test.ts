import { beforeAll, describe, expect, it } from "vitest";
import { handlers } from "../../stacks/handlers";
import type { Capture, CapturedResource, JsonObject } from "./support/capture";
import { controlAuthority } from "./support/control-invariant";
import { DEPLOY_GRADE_MUTATIONS } from "./support/deploy-grade-mutations";
import { dnsRecords } from "./support/dns-invariant";
import {
  apiRoutes,
  claimTables,
  consumerTable,
  handlersDeployed,
  invariants,
  ledgerTable,
  permissions,
  protection,
  pushAndEmail,
  queues,
  regionsAndProviders,
  relaySubscription,
  schedules,
  streamJob,
  View,
  workerSubscription,
} from "./support/invariants";
import { LAMBDA_RUNTIME_MUTATIONS } from "./support/lambda-runtime-mutations";
import { LEDGER_STREAM_MUTATIONS } from "./support/ledger-stream-mutations";
import { type Mutation, resourceOf } from "./support/mutation";
import { ON_CALL_SIGNAL_MUTATIONS } from "./support/on-call-signal-mutations";
import { operatorOutputs } from "./support/operator-invariant";
import { eventsDlqDrain, peerQueue } from "./support/peer-queue-invariant";
import { ensurePlatform, INSTALL_TIMEOUT_MS } from "./support/platform";
import { pspSecrets } from "./support/psp-secrets-invariant";
import { nightlyReconcile } from "./support/reconcile-invariant";
import { REPLICATION_ALARM_MUTATIONS } from "./support/replication-alarm-mutations";
import { SCENARIOS } from "./support/scenarios";
import { buildProgram, runScenario } from "./support/sst-program";
import { THROTTLE_MUTATIONS } from "./support/throttle-mutations";

const captures = new Map<string, Capture>();

beforeAll(async () => {
  await ensurePlatform();
  const bundles = await buildProgram();
  const runs = await Promise.all(SCENARIOS.map(({ scenario }) => runScenario(bundles, scenario)));
  for (const [i, { scenario }] of SCENARIOS.entries()) captures.set(scenario.name, runs[i] as Capture);
}, INSTALL_TIMEOUT_MS + 120_000);

const captureOf = (name: string): Capture => {
  const c = captures.get(name);
  if (!c) throw new Error(`no capture for ${name}`);
  return c;
};

describe.each(SCENARIOS)("the whole app under Pulumi mocks: $scenario.name", ({ scenario, expected }) => {
  it("runs to the end with no error and no unanswered provider call", () => {
    const c = captureOf(scenario.name);
    expect(c.errors).toEqual([]);
    expect(c.unknownInvokes).toEqual([]);
    expect(c.app.stage).toBe(scenario.stage);
    // One build per handler per Region: the same modules in both Regions.
    expect(c.builds.map((b) => b.handler).sort()).toEqual(
      [...handlers, ...handlers].map((h) => h.handler).sort(),
    );
  });

  it.each(invariants.map((inv) => [inv.name, inv] as const))("holds: %s", (_name, inv) => {
    expect(inv.check(new View(captureOf(scenario.name), expected))).toEqual([]);
  });
});

// --- Each invariant objects when its property is broken on purpose -------------------------------------------

const HOME = SCENARIOS[0] as (typeof SCENARIOS)[number];
const MRSC = SCENARIOS[1] as (typeof SCENARIOS)[number];
const SINGLE = SCENARIOS[2] as (typeof SCENARIOS)[number];
const STRIPE = SCENARIOS.find((s) => s.expected.psp === "stripe") as (typeof SCENARIOS)[number];

const res = resourceOf;
const fn = (c: Capture, name: string) => res(c, "aws:lambda/function:Function", `${name}Function`);
const role = (c: Capture, name: string) => res(c, "aws:iam/role:Role", `${name}Role`);
const table = (c: Capture, name: string) => res(c, "aws:dynamodb/table:Table", `${name}Table`);
const queue = (c: Capture, name: string) => res(c, "aws:sqs/queue:Queue", `${name}Queue`);
const esmOf = (c: Capture, fnName: string) => {
  const arn = fn(c, fnName).state.arn;
  const found = c.resources.find(
    (r) => r.type === "aws:lambda/eventSourceMapping:EventSourceMapping" && r.inputs.functionName === arn,
  );
  if (!found) throw new Error(`no subscription of ${fnName}`);
  return found;
};
const routeByKey = (c: Capture, prefix: string, key: string) => {
  const found = c.resources.find(
    (r) =>
      r.type === "aws:apigatewayv2/route:Route" && r.name.startsWith(prefix) && r.inputs.routeKey === key,
  );
  if (!found) throw new Error(`no route ${key}`);
  return found;
};
const build = (c: Capture, name: string) => {
  const found = c.builds.find((b) => b.functionID === name);
  if (!found) throw new Error(`no build of ${name}`);
  return found;
};
const records = (c: Capture, type: string, prefix: string) =>
  c.resources.filter(
    (r) => r.type === "aws:route53/record:Record" && r.inputs.type === type && r.name.startsWith(prefix),
  );
const envOf = (c: Capture, name: string) =>
  (fn(c, name).inputs.environment as JsonObject).variables as JsonObject;
const statements = (c: Capture, roleName: string) => {
  const inline = (role(c, roleName).inputs.inlinePolicies as JsonObject[])[0] as JsonObject;
  return { inline, doc: JSON.parse(String(inline.policy)) as { Statement: JsonObject[] } };
};
const addStatement = (c: Capture, roleName: string, statement: JsonObject) => {
  const inline = (role(c, roleName).inputs.inlinePolicies as JsonObject[])[0] as JsonObject;
  const doc = JSON.parse(String(inline.policy)) as { Statement: JsonObject[] };
  doc.Statement.push(statement);
  inline.policy = JSON.stringify(doc);
};

const mutations: Mutation[] = [
  {
    what: "a standby function deployed through the primary provider",
    invariant: regionsAndProviders,
    on: HOME,
    breakIt: (c) => {
      fn(c, "StandbyNotifyWorker").provider = fn(c, "PrimaryNotifyWorker").provider;
    },
    expectViolation: /StandbyNotifyWorkerFunction is in us-east-1 .*expected the standby Region us-west-2/,
  },
  {
    what: "a queue left on the default provider",
    invariant: regionsAndProviders,
    on: HOME,
    breakIt: (c) => {
      queue(c, "PrimaryEvents").provider = "";
    },
    expectViolation: /PrimaryEventsQueue uses the default provider/,
  },
  {
    what: "a standby function told it is primary",
    invariant: handlersDeployed,
    on: HOME,
    breakIt: (c) => {
      const env = (fn(c, "StandbySweeps").inputs.environment as JsonObject).variables as JsonObject;
      env.REGION_ROLE = "primary";
    },
    expectViolation: /standby: Sweeps has REGION_ROLE=primary/,
  },
  {
    what: "a handler missing from the standby Region",
    invariant: handlersDeployed,
    on: HOME,
    breakIt: (c) => {
      c.resources = c.resources.filter((r) => r !== fn(c, "StandbyResolver"));
    },
    expectViolation: /standby: 0 functions run packages\/functions\/src\/cron\/resolver\.handler/,
  },
  {
    what: "the redrive count changed to 3",
    invariant: queues,
    on: HOME,
    breakIt: (c) => {
      const q = queue(c, "PrimaryEvents");
      q.inputs.redrivePolicy = String(q.inputs.redrivePolicy).replace(
        '"maxReceiveCount":5',
        '"maxReceiveCount":3',
      );
    },
    expectViolation: /primary: redrive maxReceiveCount is 3, expected 5/,
  },
  {
    what: "a standard DLQ behind the FIFO queue",
    invariant: queues,
    on: MRSC,
    breakIt: (c) => {
      queue(c, "StandbyEventsDlq").inputs.fifoQueue = false;
    },
    expectViolation: /standby: the DLQ of a FIFO queue is not FIFO/,
  },
  {
    what: "the worker without partial batch responses",
    invariant: workerSubscription,
    on: HOME,
    breakIt: (c) => {
      esmOf(c, "PrimaryNotifyWorker").inputs.functionResponseTypes = [];
    },
    expectViolation: /primary: the worker subscription does not report partial batch failures/,
  },
  {
    what: "the standby relay reading the primary Region's stream",
    invariant: relaySubscription,
    on: HOME,
    breakIt: (c) => {
      esmOf(c, "StandbyLedgerStream").inputs.eventSourceArn = String(
        esmOf(c, "PrimaryLedgerStream").inputs.eventSourceArn,
      );
    },
    expectViolation:
      /standby: the relay reads arn:aws:dynamodb:us-east-1:.*not the ledger stream in us-west-2/,
  },
  {
    what: "the shared mapping bisecting (a relay failure is the batch's: halving a window's batch finds nothing)",
    invariant: relaySubscription,
    on: MRSC,
    breakIt: (c) => {
      esmOf(c, "PrimaryLedgerStream").inputs.bisectBatchOnFunctionError = true;
    },
    expectViolation: /primary: relay bisect-on-error is true, expected false/,
  },
  {
    what: "the relay giving a failed batch up after 10 retries (an authority blip drops it to the sweep)",
    invariant: relaySubscription,
    on: MRSC,
    breakIt: (c) => {
      esmOf(c, "PrimaryLedgerStream").inputs.maximumRetryAttempts = 10;
    },
    expectViolation: /primary: relay retries 10 times, expected -1/,
  },
  {
    what: "the stream job with a window longer than Lambda's 900 s",
    invariant: streamJob,
    on: HOME,
    breakIt: (c) => {
      esmOf(c, "PrimaryLedgerStream").inputs.tumblingWindowInSeconds = 3_600;
    },
    expectViolation: /primary: the stream job's window is 3600 s, not 1 to 900/,
  },
  {
    what: "the standby's stream job reading the primary Region's stream",
    invariant: streamJob,
    on: MRSC,
    breakIt: (c) => {
      esmOf(c, "StandbyLedgerStream").inputs.eventSourceArn = String(
        esmOf(c, "PrimaryLedgerStream").inputs.eventSourceArn,
      );
    },
    expectViolation:
      /standby: the stream job reads arn:aws:dynamodb:eu-west-1:.*not the ledger stream in eu-west-2/,
  },
  {
    what: "the relay without the refund journal's inserts (a row that lost its REFUNDED write never catches up)",
    invariant: relaySubscription,
    on: HOME,
    breakIt: (c) => {
      const criteria = esmOf(c, "StandbyLedgerStream").inputs.filterCriteria as { filters: unknown[] };
      criteria.filters = criteria.filters.slice(0, 3);
    },
    expectViolation:
      /standby: the relay does not take the inserts of JOURNAL#3…, FACT#REFUND_PENDING… from either Region/,
  },
  {
    what: "the relay without a refund's in-flight facts (a row that lost its REFUND_PENDING write never catches up)",
    invariant: relaySubscription,
    on: HOME,
    breakIt: (c) => {
      const criteria = esmOf(c, "PrimaryLedgerStream").inputs.filterCriteria as {
        filters: Array<{ pattern: string }>;
      };
      const last = criteria.filters[3] as { pattern: string };
      last.pattern = last.pattern.replace(/,\{"prefix":"FACT#REFUND_PENDING"\}/, "");
    },
    expectViolation: /primary: the relay does not take the inserts of JOURNAL#3…, FACT#REFUND_PENDING…/,
  },
  {
    what: "the relay without its own journal entries (every settled payment's event waits for the sweep)",
    invariant: relaySubscription,
    on: HOME,
    breakIt: (c) => {
      const criteria = esmOf(c, "PrimaryLedgerStream").inputs.filterCriteria as { filters: unknown[] };
      criteria.filters = [criteria.filters[0], criteria.filters[1], criteria.filters[3]];
    },
    expectViolation: /primary: the relay does not take the inserts of its own JOURNAL# entries/,
  },
  {
    what: "a ledger stream with new images only",
    invariant: ledgerTable,
    on: HOME,
    breakIt: (c) => {
      table(c, "Ledger").inputs.streamViewType = "NEW_IMAGE";
    },
    expectViolation: /the ledger stream is NEW_IMAGE, expected NEW_AND_OLD_IMAGES/,
  },
  {
    what: "a consumer table without TTL",
    invariant: consumerTable,
    on: HOME,
    breakIt: (c) => {
      delete table(c, "Consumer").inputs.ttl;
    },
    expectViolation: /the consumer table has no TTL on expires_at/,
  },
  {
    what: "an MRSC claim table without its witness",
    invariant: claimTables,
    on: MRSC,
    breakIt: (c) => {
      delete table(c, "GlobalClaims").inputs.globalTableWitness;
    },
    expectViolation: /mrsc: the claim table's witness is missing, expected eu-west-3/,
  },
  {
    what: "an MRSC claim table with an eventually consistent replica",
    invariant: claimTables,
    on: MRSC,
    breakIt: (c) => {
      for (const r of table(c, "GlobalClaims").inputs.replicas as JsonObject[]) delete r.consistencyMode;
    },
    expectViolation: /mrsc claims: the replica is not STRONG/,
  },
  {
    what: "a home-mode claim table given a replica and a witness, and no TTL",
    invariant: claimTables,
    on: HOME,
    breakIt: (c) => {
      const t = table(c, "PrimaryClaims");
      t.inputs.replicas = [{ regionName: "us-west-2", consistencyMode: "STRONG" }];
      t.inputs.globalTableWitness = { regionName: "us-east-2" };
      delete t.inputs.ttl;
    },
    expectViolation: /home: the primary claim table has (replicas|a witness|no TTL on expiration)/,
  },
  {
    what: "a resource of the witness Region deployed in the primary",
    invariant: regionsAndProviders,
    on: SINGLE,
    breakIt: (c) => {
      table(c, "WitnessControl").provider = table(c, "Ledger").provider;
    },
    expectViolation: /WitnessControlTable is in us-east-1 .*expected the witness Region ca-central-1/,
  },
  {
    what: "the MRSC authority with an eventually consistent replica",
    invariant: controlAuthority,
    on: HOME,
    breakIt: (c) => {
      for (const r of table(c, "GlobalControl").inputs.replicas as JsonObject[]) delete r.consistencyMode;
    },
    expectViolation: /mrsc: the control table's consistency mode is EVENTUAL, expected STRONG/,
  },
  {
    what: "the MRSC authority's witness outside WITNESS_REGION",
    invariant: controlAuthority,
    on: MRSC,
    breakIt: (c) => {
      table(c, "GlobalControl").inputs.globalTableWitness = { regionName: "eu-central-1" };
    },
    expectViolation: /mrsc: the control table's witness is eu-central-1, expected eu-west-3/,
  },
  {
    what: "the MRSC authority replicated into a third Region",
    invariant: controlAuthority,
    on: HOME,
    breakIt: (c) => {
      (table(c, "GlobalControl").inputs.replicas as JsonObject[]).push({
        regionName: "us-east-2",
        consistencyMode: "STRONG",
      });
    },
    expectViolation:
      /mrsc: the control table's replicas are in us-east-1, us-west-2, us-east-2, expected exactly us-east-1 and us-west-2/,
  },
  {
    what: "a standby function reading a control table of its own Region (the old per-Region belief)",
    invariant: controlAuthority,
    on: HOME,
    breakIt: (c) => {
      const own = structuredClone(table(c, "GlobalControl"));
      own.name = "StandbyControlTable";
      own.provider = table(c, "StandbyClaims").provider;
      own.state.name = "effectively-once-dev-StandbyControlTable";
      delete own.inputs.replicas;
      delete own.inputs.globalTableWitness;
      c.resources.push(own);
      envOf(c, "StandbyResolver").CONTROL_TABLE = "effectively-once-dev-StandbyControlTable";
    },
    expectViolation:
      /standby: StandbyResolverFunction CONTROL_TABLE is \S+StandbyControlTable, not the authority/,
  },
  {
    what: "an API handler allowed to write the authority",
    invariant: controlAuthority,
    on: MRSC,
    breakIt: (c) => {
      addStatement(c, "PrimaryCreatePayment", {
        Effect: "Allow",
        Action: "dynamodb:*Item",
        Resource: table(c, "GlobalControl").state.arn as string,
      });
    },
    expectViolation: /primary: PrimaryCreatePaymentFunction may dynamodb:PutItem on the control table/,
  },
  {
    what: "a function that may not read the authority (its Region would stay passive)",
    invariant: controlAuthority,
    on: SINGLE,
    breakIt: (c) => {
      const { inline, doc } = statements(c, "StandbyResolver");
      const arn = table(c, "WitnessControl").state.arn as string;
      for (const st of doc.Statement)
        if (JSON.stringify(st.Resource).includes(arn)) st.Action = "dynamodb:Query";
      inline.policy = JSON.stringify(doc);
    },
    expectViolation: /standby: StandbyResolverFunction may not GetItem on the control table in ca-central-1/,
  },
  {
    what: "a standby function told to read the single-region authority in its own Region",
    invariant: controlAuthority,
    on: SINGLE,
    breakIt: (c) => {
      delete envOf(c, "StandbyGetPayment").CONTROL_TABLE_REGION;
    },
    expectViolation:
      /standby: StandbyGetPaymentFunction has CONTROL_TABLE_REGION=\(unset\), expected ca-central-1/,
  },
  {
    what: "the single-region authority placed in an application Region",
    invariant: controlAuthority,
    on: SINGLE,
    breakIt: (c) => {
      table(c, "WitnessControl").provider = table(c, "Ledger").provider;
    },
    expectViolation: /single-region: the control table is in us-east-1, expected ca-central-1/,
  },
  {
    what: "the authority's first item rewritten by every deploy (a redeploy undoes a failover)",
    invariant: controlAuthority,
    on: HOME,
    breakIt: (c) => {
      delete res(c, "aws:dynamodb/tableItem:TableItem", "GlobalControlInitial").opts.ignoreChanges;
    },
    expectViolation: /GlobalControlInitial does not ignore changes to its item/,
  },
  {
    what: "the stage outputs without the authority",
    invariant: controlAuthority,
    on: SINGLE,
    breakIt: (c) => {
      delete ((c.outputs as JsonObject).failover as JsonObject).authority;
    },
    expectViolation: /outputs: failover\.authority is \{\}, expected \{"table":/,
  },
  {
    what: "the stage outputs without a Region's events DLQ (redrive-dlq --stage could not find it)",
    invariant: operatorOutputs,
    on: MRSC,
    breakIt: (c) => {
      delete (((c.outputs as JsonObject).failover as JsonObject).standby as JsonObject).eventsDlq;
    },
    expectViolation: /outputs has no failover\.standby\.eventsDlq \(deploy this version/,
  },
  {
    what: "the on-call policy without the standby's ledger (a failover there could not write its canary)",
    invariant: operatorOutputs,
    on: HOME,
    breakIt: (c) => {
      const policy = (c.outputs as JsonObject).operatorPolicy as {
        Statement: { Sid: string; Resource: string[] }[];
      };
      const ledger = policy.Statement.find((s) => s.Sid === "Ledger");
      if (ledger) ledger.Resource = ledger.Resource.filter((r) => !r.includes(":us-west-2:"));
    },
    expectViolation: /outputs: operatorPolicy Ledger is .*expected .*arn:aws:dynamodb:us-west-2:/,
  },
  {
    what: "the outputs' tunables other than the functions' (resolve-unknowns would count the PSP budget apart)",
    invariant: operatorOutputs,
    on: SINGLE,
    breakIt: (c) => {
      const failover = (c.outputs as JsonObject).failover as JsonObject;
      (failover.tunables as JsonObject).RESOLVER_RATE_PER_S = "50";
    },
    expectViolation: /failover\.tunables\.RESOLVER_RATE_PER_S is 50, the primary resolver's is 10/,
  },
  {
    what: "an acting function's timeout raised past the act window the failover waits out",
    invariant: operatorOutputs,
    on: SINGLE,
    breakIt: (c) => {
      fn(c, "PrimarySweeps").inputs.timeout = 600;
    },
    expectViolation: /FUNCTION_TIMEOUT_MS is 120000, shorter than the primary Sweeps's 600 s timeout/,
  },
  {
    what: "a payments route without the JWT authorizer",
    invariant: apiRoutes,
    on: HOME,
    breakIt: (c) => {
      const r = routeByKey(c, "Standby", "GET /payments/{payment_id}");
      r.inputs.authorizationType = "NONE";
      delete r.inputs.authorizerId;
    },
    expectViolation: /standby: GET \/payments\/\{payment_id\} is not behind the JWT authorizer/,
  },
  {
    what: "a /_local route deployed to AWS",
    invariant: apiRoutes,
    on: HOME,
    breakIt: (c) => {
      const r = structuredClone(routeByKey(c, "Primary", "POST /payments"));
      r.name = "PrimaryApiRouteLocalHealthRoute";
      r.inputs.routeKey = "GET /_local/health";
      c.resources.push(r);
    },
    expectViolation: /route GET \/_local\/health exists in AWS/,
  },
  {
    what: "the sweeps scheduled every minute",
    invariant: schedules,
    on: HOME,
    breakIt: (c) => {
      res(c, "aws:scheduler/schedule:Schedule", "PrimarySweepsScheduleSchedule").inputs.scheduleExpression =
        "rate(1 minute)";
    },
    expectViolation: /primary: Sweeps runs on rate\(1 minute\), expected rate\(5 minutes\)/,
  },
  {
    what: "the worker allowed to write the claim table",
    invariant: permissions,
    on: HOME,
    breakIt: (c) => {
      addStatement(c, "StandbyNotifyWorker", {
        Effect: "Allow",
        Action: ["dynamodb:PutItem"],
        Resource: [table(c, "StandbyClaims").state.arn as string],
      });
    },
    expectViolation: /standby: the worker may dynamodb:PutItem on the claim table/,
  },
  {
    what: "a function granted a table of the witness Region other than the authority",
    invariant: permissions,
    on: SINGLE,
    breakIt: (c) => {
      addStatement(c, "StandbySweeps", {
        Effect: "Allow",
        Action: ["dynamodb:GetItem"],
        Resource: ["arn:aws:dynamodb:ca-central-1:123456789012:table/other"],
      });
    },
    expectViolation:
      /standby: Sweeps is allowed on arn:aws:dynamodb:ca-central-1:\S+table\/other in another Region/,
  },
  {
    what: "an API handler allowed to send to the queue",
    invariant: permissions,
    on: MRSC,
    breakIt: (c) => {
      addStatement(c, "PrimaryCreatePayment", {
        Effect: "Allow",
        Action: "sqs:Send*",
        Resource: "arn:aws:sqs:*",
      });
    },
    expectViolation: /primary: API handler CreatePayment may send to the events queue/,
  },
  {
    what: "a function role that the account root may assume",
    invariant: permissions,
    on: HOME,
    breakIt: (c) => {
      role(c, "PrimaryGetPayment").inputs.assumeRolePolicy = JSON.stringify({
        Statement: [
          { Effect: "Allow", Principal: { AWS: "arn:aws:iam::123456789012:root" }, Action: "sts:AssumeRole" },
        ],
      });
    },
    expectViolation: /primary: GetPayment's role trusts .*root/,
  },
  {
    what: "the standby Region without its FCM application",
    invariant: pushAndEmail,
    on: HOME,
    breakIt: (c) => {
      c.resources = c.resources.filter((r) => r.name !== "StandbyPushFcm");
    },
    expectViolation: /standby: push platforms are APNS_SANDBOX, expected APNS_SANDBOX and GCM/,
  },
  {
    what: "the notify worker linked to the PSP API key",
    invariant: pspSecrets,
    on: HOME,
    breakIt: (c) => {
      build(c, "StandbyNotifyWorker").links.PspApiKey = { value: "sk_test_offline" };
    },
    expectViolation: /standby: NotifyWorker must never read the PSP apiKey, but can \(link PspApiKey\)/,
  },
  {
    what: "get-payment given the webhook secret in its plain environment",
    invariant: pspSecrets,
    on: MRSC,
    breakIt: (c) => {
      const env = (fn(c, "PrimaryGetPayment").inputs.environment as JsonObject).variables as JsonObject;
      env.PSP_WEBHOOK_SECRET = "whsec_offline";
    },
    expectViolation:
      /primary: GetPayment must never read the PSP webhookSecret, but can \(env PSP_WEBHOOK_SECRET\)/,
  },
  {
    what: "the relay handed the API key inside another link",
    invariant: pspSecrets,
    on: HOME,
    breakIt: (c) => {
      build(c, "PrimaryLedgerStream").links.PspSettings = {
        url: "https://psp.example.com",
        key: "sk_test_offline",
      };
    },
    expectViolation: /primary: LedgerStream must never read the PSP apiKey, but can \(link PspSettings\)/,
  },
  {
    what: "device registration given the API key under another variable name",
    invariant: pspSecrets,
    on: HOME,
    breakIt: (c) => {
      const env = (fn(c, "StandbyRegisterDevice").inputs.environment as JsonObject).variables as JsonObject;
      env.STRIPE_KEY = "sk_test_offline";
    },
    expectViolation: /standby: RegisterDevice must never read the PSP apiKey, but can \(env STRIPE_KEY\)/,
  },
  {
    what: "resolve-payment without the link to its API key (a key the server never saw answers 500)",
    invariant: pspSecrets,
    on: HOME,
    breakIt: (c) => {
      delete build(c, "StandbyResolvePayment").links.PspApiKey;
    },
    expectViolation: /standby: ResolvePayment needs the PSP apiKey but is not linked to PspApiKey/,
  },
  {
    what: "the resolver without the link to its API key",
    invariant: pspSecrets,
    on: MRSC,
    breakIt: (c) => {
      delete build(c, "PrimaryResolver").links.PspApiKey;
    },
    expectViolation: /primary: Resolver needs the PSP apiKey but is not linked to PspApiKey/,
  },
  {
    what: "a Stripe stage's generic webhook linked to the Stripe webhook secret",
    invariant: pspSecrets,
    on: STRIPE,
    breakIt: (c) => {
      build(c, "PrimaryPspWebhook").links.StripeWebhookSecret = { value: "whsec_offline_stripe" };
    },
    expectViolation:
      /primary: PspWebhook can read the PSP webhookSecret \(link StripeWebhookSecret\) without using it/,
  },
  {
    what: "a Stripe stage's Stripe webhook without its signing secret",
    invariant: pspSecrets,
    on: STRIPE,
    breakIt: (c) => {
      delete build(c, "StandbyStripeWebhook").links.StripeWebhookSecret;
    },
    expectViolation:
      /standby: StripeWebhook needs the PSP webhookSecret but is not linked to StripeWebhookSecret/,
  },
  {
    what: "a Stripe stage's resolver linked to the generic PSP key instead of Stripe's",
    invariant: pspSecrets,
    on: STRIPE,
    breakIt: (c) => {
      const links = build(c, "PrimaryResolver").links;
      links.PspApiKey = links.StripeSecretKey as JsonObject;
      delete links.StripeSecretKey;
    },
    expectViolation: /primary: Resolver needs the PSP apiKey but is not linked to StripeSecretKey/,
  },
  {
    what: "a Stripe stage without its Stripe webhook route",
    invariant: apiRoutes,
    on: STRIPE,
    breakIt: (c) => {
      c.resources = c.resources.filter((r) => r !== routeByKey(c, "Standby", "POST /webhooks/stripe"));
    },
    expectViolation: /standby: routes are .*; expected .*POST \/webhooks\/stripe/,
  },
  {
    what: "the domain's _dmarc record created by both Regions' Email (sst deploy fails on the second)",
    invariant: dnsRecords,
    on: MRSC,
    breakIt: (c) => {
      const dmarc = structuredClone(records(c, "TXT", "PrimaryEmail")[0] as CapturedResource);
      dmarc.name = dmarc.name.replace(/^Primary/, "Standby");
      c.resources.push(dmarc);
    },
    expectViolation:
      /PrimaryEmailTXTRecord\w* and StandbyEmailTXTRecord\w* both create Zmock-example\.org _dmarc\.pay\.example\.org TXT/,
  },
  {
    what: "the standby identity left without its DKIM records",
    invariant: dnsRecords,
    on: MRSC,
    breakIt: (c) => {
      const standbyDkim = new Set(records(c, "CNAME", "StandbyEmail"));
      c.resources = c.resources.filter((r) => !standbyDkim.has(r));
    },
    expectViolation: /standby: no DKIM record \S+\._domainkey\.pay\.example\.org .*never verifies/,
  },
  {
    what: "a production table without deletion protection or retention",
    invariant: protection,
    on: MRSC,
    breakIt: (c) => {
      const t = table(c, "Ledger");
      t.inputs.deletionProtectionEnabled = false;
      t.opts = {};
    },
    expectViolation: /LedgerTable: (deletion protection is false|not retained on delete)/,
  },
  {
    what: "the reconcile scheduled every hour",
    invariant: nightlyReconcile,
    on: HOME,
    breakIt: (c) => {
      res(
        c,
        "aws:scheduler/schedule:Schedule",
        "PrimaryReconcileScheduleSchedule",
      ).inputs.scheduleExpression = "rate(1 hour)";
    },
    expectViolation: /primary: the reconcile runs on rate\(1 hour\), expected cron\(15 3 \* \* \? \*\)/,
  },
  {
    what: "the reconcile with Lambda's default 3 s timeout",
    invariant: nightlyReconcile,
    on: MRSC,
    breakIt: (c) => {
      fn(c, "StandbyReconcile").inputs.timeout = 3;
    },
    expectViolation: /standby: the reconcile's timeout is 3 s, too short to page through a day/,
  },
  {
    what: "the discrepancy alarm paging only from two discrepancies on",
    invariant: nightlyReconcile,
    on: HOME,
    breakIt: (c) => {
      res(
        c,
        "aws:cloudwatch/metricAlarm:MetricAlarm",
        "StandbyReconcileDiscrepanciesAlarm",
      ).inputs.threshold = 1;
    },
    expectViolation: /standby: no alarm on any ReconcileDiscrepancies > 0 over a day/,
  },
  {
    what: "the discrepancy alarm on a dimension the handler does not publish",
    invariant: nightlyReconcile,
    on: MRSC,
    breakIt: (c) => {
      res(
        c,
        "aws:cloudwatch/metricAlarm:MetricAlarm",
        "PrimaryReconcileDiscrepanciesAlarm",
      ).inputs.dimensions = {
        FunctionName: "reconcile",
      };
    },
    expectViolation: /primary: no alarm on any ReconcileDiscrepancies > 0 over a day \(found 0\)/,
  },
  {
    what: "the not-run alarm with missing data breaching (in ALARM from the first deploy until the first night)",
    invariant: nightlyReconcile,
    on: HOME,
    breakIt: (c) => {
      res(
        c,
        "aws:cloudwatch/metricAlarm:MetricAlarm",
        "PrimaryReconcileNotRunAlarm",
      ).inputs.treatMissingData = "breaching";
    },
    expectViolation: /primary: the not-run alarm treats missing data as breaching: it sits in ALARM/,
  },
  {
    what: "a standby function told its own Region's events queue as the peer (a passive Region hands events to itself)",
    invariant: peerQueue,
    on: HOME,
    breakIt: (c) => {
      const env = envOf(c, "StandbySweeps");
      env.PEER_EVENTS_QUEUE_URL = env.EVENTS_QUEUE_URL as string;
    },
    expectViolation:
      /standby: StandbySweepsFunction has PEER_EVENTS_QUEUE_URL=\S+ \(its own Region's queue\), expected the primary events queue/,
  },
  {
    what: "the worker without the peer's events queue URL",
    invariant: peerQueue,
    on: MRSC,
    breakIt: (c) => {
      delete envOf(c, "PrimaryNotifyWorker").PEER_EVENTS_QUEUE_URL;
    },
    expectViolation: /primary: PrimaryNotifyWorkerFunction has PEER_EVENTS_QUEUE_URL=\(unset\)/,
  },
  {
    what: "the worker that may not send to the peer's events queue (a passive Region's events stay stranded)",
    invariant: peerQueue,
    on: HOME,
    breakIt: (c) => {
      const { inline, doc } = statements(c, "StandbyNotifyWorker");
      const arn = queue(c, "PrimaryEvents").state.arn as string;
      doc.Statement = doc.Statement.filter((st) => !JSON.stringify(st.Resource).includes(arn));
      inline.policy = JSON.stringify(doc);
    },
    expectViolation: /standby: the worker may not sqs:SendMessage on the primary events queue/,
  },
  {
    what: "the relay allowed to send to the other Region's events queue",
    invariant: peerQueue,
    on: SINGLE,
    breakIt: (c) => {
      addStatement(c, "PrimaryLedgerStream", {
        Effect: "Allow",
        Action: ["sqs:SendMessage"],
        Resource: [queue(c, "StandbyEvents").state.arn as string],
      });
    },
    expectViolation: /primary: LedgerStream may sqs:SendMessage on the standby events queue/,
  },
  {
    what: "the worker allowed every queue of the peer's Region (its DLQ too), and to receive there",
    invariant: peerQueue,
    on: MRSC,
    breakIt: (c) => {
      addStatement(c, "StandbyNotifyWorker", {
        Effect: "Allow",
        Action: "sqs:*",
        Resource: "arn:aws:sqs:eu-west-1:*",
      });
    },
    expectViolation:
      /standby: the worker may (sqs:ReceiveMessage on the primary events queue|sqs:SendMessage on arn:aws:sqs:eu-west-1:\S+EventsDlq)/,
  },
  {
    what: "the sweeps that may not send to the peer's events queue (a passive Region's DLQ stays stranded)",
    invariant: peerQueue,
    on: MRSC,
    breakIt: (c) => {
      const { inline, doc } = statements(c, "StandbySweeps");
      const arn = queue(c, "PrimaryEvents").state.arn as string;
      doc.Statement = doc.Statement.filter((st) => !JSON.stringify(st.Resource).includes(arn));
      inline.policy = JSON.stringify(doc);
    },
    expectViolation: /standby: the sweeps may not sqs:SendMessage on the primary events queue/,
  },
  {
    what: "the worker allowed to receive from and delete on its Region's events DLQ",
    invariant: eventsDlqDrain,
    on: HOME,
    breakIt: (c) => {
      addStatement(c, "StandbyNotifyWorker", {
        Effect: "Allow",
        Action: ["sqs:ReceiveMessage", "sqs:DeleteMessage"],
        Resource: [queue(c, "StandbyEventsDlq").state.arn as string],
      });
    },
    expectViolation: /standby: NotifyWorker may sqs:(ReceiveMessage|DeleteMessage) on its events DLQ/,
  },
  {
    what: "the primary's sweeps allowed to drain the standby's events DLQ",
    invariant: eventsDlqDrain,
    on: SINGLE,
    breakIt: (c) => {
      addStatement(c, "PrimarySweeps", {
        Effect: "Allow",
        Action: ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"],
        Resource: [queue(c, "StandbyEventsDlq").state.arn as string],
      });
    },
    expectViolation: /primary: Sweeps may sqs:ReceiveMessage on the standby events DLQ/,
  },
  {
    what: "the sweeps that may not delete from their events DLQ (each sweep would hand the same events over again)",
    invariant: eventsDlqDrain,
    on: MRSC,
    breakIt: (c) => {
      const { inline, doc } = statements(c, "PrimarySweeps");
      const arn = queue(c, "PrimaryEventsDlq").state.arn as string;
      doc.Statement = doc.Statement.filter((st) => !JSON.stringify(st.Resource).includes(arn));
      inline.policy = JSON.stringify(doc);
    },
    expectViolation: /primary: the sweeps may not sqs:DeleteMessage on its events DLQ/,
  },
  {
    what: "a standby function told the primary's events DLQ",
    invariant: eventsDlqDrain,
    on: HOME,
    breakIt: (c) => {
      envOf(c, "StandbySweeps").EVENTS_DLQ_URL = queue(c, "PrimaryEventsDlq").state.url as string;
    },
    expectViolation:
      /standby: StandbySweepsFunction has EVENTS_DLQ_URL=\S+ \(the primary Region's DLQ\), expected its events DLQ/,
  },
];

describe("a stage on Stripe (PSP=stripe, the stripe-dev scenario)", () => {
  const PSP_CALLERS = ["CancelPayment", "CreatePayment", "Reconcile", "ResolvePayment", "Resolver"];
  const linkedTo = (c: Capture, role: string, link: string) =>
    handlers.filter((h) => link in build(c, `${role}${h.id}`).links).map((h) => h.id);

  it.each(["Primary", "Standby"])(
    "%s: StripeSecretKey is linked to exactly the functions that call Stripe, StripeWebhookSecret to its webhook alone",
    (role) => {
      // act
      const c = captureOf(STRIPE.scenario.name);
      // assess
      expect(linkedTo(c, role, "StripeSecretKey").sort()).toEqual(PSP_CALLERS);
      expect(linkedTo(c, role, "StripeWebhookSecret")).toEqual(["StripeWebhook"]);
      expect(linkedTo(c, role, "PspApiKey")).toEqual([]);
      expect(linkedTo(c, role, "PspWebhookSecret")).toEqual([]);
      expect(envOf(c, `${role}CreatePayment`).PSP).toBe("stripe");
    },
  );

  it.each(["Primary", "Standby"])(
    "%s: POST /webhooks/stripe is routed, open to Stripe's signature",
    (role) => {
      // act
      const c = captureOf(STRIPE.scenario.name);
      const route = routeByKey(c, role, "POST /webhooks/stripe");
      // assess
      expect(route.inputs.authorizationType).toBe("NONE");
    },
  );

  it("a generic stage keeps its own secrets and also routes /webhooks/stripe (linked to nothing there: 404)", () => {
    // act
    const c = captureOf(HOME.scenario.name);
    // assess
    expect(linkedTo(c, "Primary", "PspApiKey").sort()).toEqual(PSP_CALLERS);
    expect(linkedTo(c, "Primary", "PspWebhookSecret")).toEqual(["PspWebhook"]);
    expect(linkedTo(c, "Primary", "StripeWebhookSecret")).toEqual([]);
    expect(routeByKey(c, "Primary", "POST /webhooks/stripe").inputs.authorizationType).toBe("NONE");
  });
});

describe("each invariant reports its property broken on purpose", () => {
  const all = [
    ...mutations,
    ...DEPLOY_GRADE_MUTATIONS,
    ...ON_CALL_SIGNAL_MUTATIONS,
    ...REPLICATION_ALARM_MUTATIONS,
    ...THROTTLE_MUTATIONS,
    ...LEDGER_STREAM_MUTATIONS,
    ...LAMBDA_RUNTIME_MUTATIONS,
  ];

  it("covers every invariant", () => {
    expect(new Set(all.map((m) => m.invariant.name))).toEqual(new Set(invariants.map((i) => i.name)));
  });

  it.each(all.map((m) => [m.what, m] as const))("%s", (_what, m) => {
    const intact = captureOf(m.on.scenario.name);
    expect(m.invariant.check(new View(intact, m.on.expected))).toEqual([]);
    const broken = structuredClone(intact);
    m.breakIt(broken);
    const found = m.invariant.check(new View(broken, m.on.expected));
    expect(found, `${m.invariant.name} did not object`).toEqual(
      expect.arrayContaining([expect.stringMatching(m.expectViolation)]),
    );
  });
});
