import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { RegionRole } from "@eo/core";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  type OperatorPolicyDocument,
  type OperatorRegionArns,
  operatorPolicyDocument,
} from "../../stacks/operator-grants";
import { isAllowed } from "../infra/support/iam";
import { startAwsWire, type WireCall } from "./aws-wire";

const ACCOUNT = "000000000000";
const AUTHORITY_REGION = "us-east-2";

/**
 * A deployed stage made of the local stack: an outputs file in the shape `sst deploy` writes (stacks/
 * failover-outputs.ts), naming the local tables, queues and made-up function names; the AWS wire in front of the
 * emulators (Lambda Invoke runs the Region's job through `/_local/run`); the PSP's secrets as `sst shell` hands them;
 * and the on-call policy the stacks would output for these resources.
 */
export async function fakeStage(stack: LocalStack, stage = "test") {
  const dir = mkdtempSync(join(tmpdir(), "eo-stage-"));
  const apis: Record<RegionRole, string | undefined> = { primary: stack.apiUrl, standby: stack.standbyUrl };
  const fnName = (role: RegionRole, job: string) => `${stage}-${role}-${job}`;
  const wire = await startAwsWire({
    dynamodb: stack.emulators.endpoints.dynamodb,
    sqs: stack.emulators.endpoints.sqs,
    invoke: async (name, payload) => {
      const [role, job] = name.slice(stage.length + 1).split("-") as [RegionRole, string];
      const res = await fetch(`${apis[role]}/_local/run/${job}`, {
        method: "POST",
        body: JSON.stringify(payload),
      });
      return ((await res.json()) as { result?: unknown }).result ?? {};
    },
  });
  const region = (role: RegionRole) => regionOutputs(stack, role, (job) => fnName(role, job));
  const failover = {
    stage,
    claimMode: "home",
    // The act window's longest acting timeout, as a deployed stage's outputs carry it: short, to keep files quick.
    tunables: { RESOLVER_RATE_PER_S: "10", FUNCTION_TIMEOUT_MS: "1500" },
    primary: region("primary"),
    standby: region("standby"),
    // The local authority is one table outside both Regions: a single-Region authority in a third Region.
    authority: { table: "control", mode: "single-region", regions: [AUTHORITY_REGION] },
  };
  const policy = operatorPolicyDocument({
    primary: arnsOf(failover.primary),
    standby: arnsOf(failover.standby),
  });
  const file = join(dir, "outputs.json");
  writeFileSync(file, JSON.stringify({ failover, operatorPolicy: policy }, null, 2));
  const secret = (value: string) => JSON.stringify({ type: "sst.sst.Secret", value });
  return {
    file,
    policy,
    calls: wire.calls,
    /** The variables of `npx sst shell --stage <stage>` on an operator's machine, pointed at the wire. */
    env: {
      ...wire.env,
      SST_RESOURCE_PspUrl: secret(stack.psp.url),
      SST_RESOURCE_PspApiKey: secret("sk_local"),
      SST_RESOURCE_App: JSON.stringify({ name: "effectively-once", stage }),
    },
    /** The requests the wire saw that the on-call policy would refuse, as `action on resource` lines. */
    refused: (calls: WireCall[] = wire.calls, by: OperatorPolicyDocument = policy) =>
      calls
        .filter((c) => !isAllowed([by], c.action, arnOfCall(c)))
        .map((c) => `${c.action} on ${arnOfCall(c)}`),
    stop: async () => {
      await wire.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** One Region's entry of the outputs, as stacks/failover-outputs.ts writes it. */
function regionOutputs(stack: LocalStack, role: RegionRole, fnName: (job: string) => string) {
  const r = stack.emulators.regions[role];
  return {
    region: r.region,
    control: "control",
    claims: r.claimTable,
    ledger: r.ledgerTable,
    consumer: r.consumerTable,
    eventsQueue: r.queues.events,
    eventsDlq: r.queues.eventsDlq,
    totals: r.totalsTable,
    streamJobFailures: r.queues.streamJobFailures,
    resolver: fnName("resolver"),
    sweeps: fnName("sweeps"),
  };
}

function arnsOf(r: ReturnType<typeof regionOutputs>): OperatorRegionArns {
  const table = (region: string, name: string) => `arn:aws:dynamodb:${region}:${ACCOUNT}:table/${name}`;
  const queue = (url: string) => `arn:aws:sqs:${r.region}:${ACCOUNT}:${url.split("/").pop()}`;
  const fn = (name: string) => `arn:aws:lambda:${r.region}:${ACCOUNT}:function:${name}`;
  return {
    authority: table(AUTHORITY_REGION, r.control),
    ledger: table(r.region, r.ledger),
    claims: table(r.region, r.claims),
    eventsQueue: queue(r.eventsQueue),
    eventsDlq: queue(r.eventsDlq),
    totals: table(r.region, r.totals),
    streamJobFailures: queue(r.streamJobFailures),
    resolver: fn(r.resolver),
    sweeps: fn(r.sweeps),
  };
}

/** The ARN IAM checks for a request: the table (or its index), the queue, the function; `*` for CloudWatch. */
export function arnOfCall(c: WireCall): string {
  const r = c.resource;
  if (!r) return "*";
  if (r.kind === "table")
    return `arn:aws:dynamodb:${c.region}:${ACCOUNT}:table/${r.name}${r.index ? `/index/${r.index}` : ""}`;
  if (r.kind === "queue") return `arn:aws:sqs:${c.region}:${ACCOUNT}:${r.name.split("/").pop()}`;
  return `arn:aws:lambda:${c.region}:${ACCOUNT}:function:${r.name}`;
}
