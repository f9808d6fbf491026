import { beforeAll, describe, expect, it } from "vitest";
import {
  OPERATOR_GRANTS,
  type OperatorPolicyDocument,
  type OperatorRegionArns,
  operatorPolicyDocument,
} from "../../stacks/operator-grants";
import { actionsOf, sdkUses } from "./support/sdk-commands";

// The on-call policy (stacks/operator-grants.ts) against what the operator scripts can send: found statically in
// each script's bundle (test/infra/support/sdk-commands.ts), so that no command is missed for want of a test that
// sends it. Resource by resource, the scripts' stage-mode tests check every request they made (test/operator).
const SCRIPTS = ["failover", "reconcile", "resolve-unknowns", "redrive-dlq", "recompute-totals"] as const;

const arns = (region: string, suffix: string): OperatorRegionArns => ({
  authority: `arn:aws:dynamodb:${region}:1:table/control`,
  ledger: `arn:aws:dynamodb:${region}:1:table/ledger`,
  claims: `arn:aws:dynamodb:${region}:1:table/claims-${suffix}`,
  eventsQueue: `arn:aws:sqs:${region}:1:events-${suffix}.fifo`,
  eventsDlq: `arn:aws:sqs:${region}:1:events-dlq-${suffix}.fifo`,
  totals: `arn:aws:dynamodb:${region}:1:table/totals-${suffix}`,
  streamJobFailures: `arn:aws:sqs:${region}:1:stream-job-failures-${suffix}`,
  resolver: `arn:aws:lambda:${region}:1:function:resolver-${suffix}`,
  sweeps: `arn:aws:lambda:${region}:1:function:sweeps-${suffix}`,
});
const POLICY = operatorPolicyDocument({ primary: arns("us-east-1", "p"), standby: arns("us-west-2", "s") });

/** What each script needs, as `script: Command needs action` lines, and the bindings no rule maps. */
const needs = new Map<string, { command: string; action: string }[]>();
const unmapped: string[] = [];
beforeAll(async () => {
  for (const script of SCRIPTS) {
    const { uses, text } = await sdkUses(script);
    const list: { command: string; action: string }[] = [];
    for (const use of uses) {
      const actions = actionsOf(use, text);
      if (!actions) unmapped.push(`${script}: ${use.module} ${use.name}`);
      for (const action of actions ?? []) list.push({ command: use.name, action });
    }
    needs.set(script, list);
  }
}, 120_000);

const granted = (p: OperatorPolicyDocument) => new Set(p.Statement.flatMap((s) => s.Action));

/** Each action a script can need that the policy does not grant, as a line naming the script and its command. */
function missing(p: OperatorPolicyDocument): string[] {
  const actions = granted(p);
  return [...needs].flatMap(([script, list]) =>
    list.filter((n) => !actions.has(n.action)).map((n) => `${script}: ${n.command} needs ${n.action}`),
  );
}

describe("the on-call policy and the SDK commands the operator scripts can send", () => {
  it("finds each script's commands, and no SDK binding it cannot map to IAM actions", () => {
    expect(unmapped).toEqual([]);
    const commands = (s: string) => [...new Set(needs.get(s)?.map((n) => n.command))].sort();
    expect(commands("reconcile")).toEqual(["GetCommand", "PutCommand", "ScanCommand"]);
    expect(commands("redrive-dlq")).toEqual(
      expect.arrayContaining(["ReceiveMessageCommand", "SendMessageCommand", "DeleteMessageCommand"]),
    );
    expect(commands("failover")).toEqual(
      expect.arrayContaining(["InvokeCommand", "GetMetricStatisticsCommand"]),
    );
  });

  it("grants every action a command of any script needs", () => {
    expect(missing(POLICY)).toEqual([]);
  });

  it("grants nothing no script can ask for (exactly the scripts' actions)", () => {
    const needed = new Set([...needs.values()].flat().map((n) => n.action));
    expect([...granted(POLICY)].filter((a) => !needed.has(a))).toEqual([]);
  });

  it("objects, naming the script and command, when an action is taken out of the policy", () => {
    // prepare: the policy without ReceiveMessage on the DLQ
    const broken = structuredClone(POLICY);
    for (const s of broken.Statement) s.Action = s.Action.filter((a) => a !== "sqs:ReceiveMessage");
    // act
    const found = missing(broken);
    // assess
    expect(found).toEqual([
      "redrive-dlq: ReceiveMessageCommand needs sqs:ReceiveMessage",
      "recompute-totals: ReceiveMessageCommand needs sqs:ReceiveMessage",
    ]);
  });

  it("names each resource in both Regions (the authority once where it is one table), and `*` only for CloudWatch reads", () => {
    const single = operatorPolicyDocument({
      primary: { ...arns("us-east-1", "p"), authority: "arn:aws:dynamodb:us-east-2:1:table/control" },
      standby: { ...arns("us-west-2", "s"), authority: "arn:aws:dynamodb:us-east-2:1:table/control" },
    });
    const byId = (p: OperatorPolicyDocument, sid: string) => p.Statement.find((s) => s.Sid === sid)?.Resource;
    expect(byId(POLICY, "Ledger")).toEqual([
      "arn:aws:dynamodb:us-east-1:1:table/ledger",
      "arn:aws:dynamodb:us-west-2:1:table/ledger",
    ]);
    expect(byId(POLICY, "LedgerIndexes")).toEqual([
      "arn:aws:dynamodb:us-east-1:1:table/ledger/index/*",
      "arn:aws:dynamodb:us-west-2:1:table/ledger/index/*",
    ]);
    expect(byId(POLICY, "Jobs")).toHaveLength(4);
    expect(byId(single, "Authority")).toEqual(["arn:aws:dynamodb:us-east-2:1:table/control"]);
    const wildcard = POLICY.Statement.filter((s) => s.Resource.includes("*"));
    expect(wildcard.flatMap((s) => s.Action)).toEqual(["cloudwatch:GetMetricStatistics"]);
    expect(POLICY.Statement.map((s) => s.Sid)).toEqual(OPERATOR_GRANTS.map((g) => g.sid));
  });
});
