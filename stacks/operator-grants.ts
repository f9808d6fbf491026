/**
 * What the on-call operator's scripts (`failover`, `reconcile`, `resolve-unknowns`, `redrive-dlq`, `recompute-totals`)
 * do in AWS, as IAM
 * sees it: each resource they reach and exactly the actions they make on it. Plain data and a pure function, so
 * that the stacks (stacks/operator-policy.ts) and the offline tests build the same document.
 * test/infra/operator-policy.test.ts holds it to the SDK commands the scripts can send, and the scripts' stage-mode
 * tests hold every request they made to it, resource by resource.
 */

/** The ARNs of one Region that the scripts reach. */
export interface OperatorRegionArns {
  /** The authority's table as the Region reaches it: its MRSC replica, or the one table in the witness Region. */
  authority: string;
  ledger: string;
  claims: string;
  eventsQueue: string;
  eventsDlq: string;
  /** The stream job's sink and its failure queue (recompute-totals). */
  totals: string;
  streamJobFailures: string;
  resolver: string;
  sweeps: string;
}

type On = keyof OperatorRegionArns | "ledgerIndexes" | "metrics";

/** One statement: the actions on one kind of resource, in both Regions, and which script needs them. */
export interface OperatorGrant {
  sid: string;
  on: On | On[];
  actions: string[];
  why: string;
}

/** The grants, resource by resource (both Regions each). */
export const OPERATOR_GRANTS: readonly OperatorGrant[] = [
  {
    sid: "Authority",
    on: "authority",
    actions: ["dynamodb:GetItem", "dynamodb:PutItem"],
    why: "every script reads the active Region; failover writes the next epoch (a conditional put)",
  },
  {
    sid: "Ledger",
    on: "ledger",
    actions: [
      "dynamodb:DeleteItem",
      "dynamodb:GetItem",
      "dynamodb:PutItem",
      "dynamodb:Query",
      "dynamodb:Scan",
      "dynamodb:UpdateItem",
    ],
    why: "reconcile scans payment rows; failover's canary and row checks; resolve-unknowns reads a payment's items and settles them (transactions)",
  },
  {
    sid: "LedgerIndexes",
    on: "ledgerIndexes",
    actions: ["dynamodb:Query"],
    why: "failover counts the outbox and unknown payments; resolve-unknowns lists them (the sparse index gsi1)",
  },
  {
    sid: "Claims",
    on: "claims",
    actions: ["dynamodb:Scan", "dynamodb:UpdateItem"],
    why: "failover counts open claims; resolve-unknowns takes PSP budget slots (the buckets live in the claim table)",
  },
  {
    sid: "EventsQueue",
    on: "eventsQueue",
    actions: ["sqs:GetQueueAttributes", "sqs:SendMessage"],
    why: "redrive-dlq checks the queue's redrive policy and sends dead letters back with their ids",
  },
  {
    sid: "EventsDlq",
    on: "eventsDlq",
    actions: [
      "sqs:ChangeMessageVisibility",
      "sqs:DeleteMessage",
      "sqs:GetQueueAttributes",
      "sqs:ReceiveMessage",
    ],
    why: "redrive-dlq reads, hides, deletes (once re-sent) or releases each dead letter",
  },
  {
    sid: "Totals",
    on: "totals",
    actions: ["dynamodb:PutItem"],
    why: "recompute-totals writes a given-up batch's totals under the batch's own key",
  },
  {
    sid: "StreamJobFailures",
    on: "streamJobFailures",
    actions: ["sqs:ChangeMessageVisibility", "sqs:DeleteMessage", "sqs:ReceiveMessage"],
    why: "recompute-totals reads each given-up batch, deletes it once added, or releases it",
  },
  {
    sid: "Jobs",
    on: ["resolver", "sweeps"],
    actions: ["lambda:InvokeFunction"],
    why: "failover runs the new Region's resolver and sweeps",
  },
  {
    sid: "Metrics",
    on: "metrics",
    actions: ["cloudwatch:GetMetricStatistics"],
    why: "failover reads the ledger's ReplicationLatency; CloudWatch reads take no resource ARN",
  },
];

/** An IAM policy document. */
export interface OperatorPolicyDocument {
  Version: "2012-10-17";
  Statement: { Sid: string; Effect: "Allow"; Action: string[]; Resource: string[] }[];
}

/** The on-call policy for a stage: each grant on that resource in both Regions (deduplicated, e.g. one authority). */
export function operatorPolicyDocument(
  regions: Record<"primary" | "standby", OperatorRegionArns>,
): OperatorPolicyDocument {
  const both = [regions.primary, regions.standby];
  const arnsOf = (on: On): string[] => {
    if (on === "metrics") return ["*"];
    if (on === "ledgerIndexes") return both.map((r) => `${r.ledger}/index/*`);
    return both.map((r) => r[on]);
  };
  return {
    Version: "2012-10-17",
    Statement: OPERATOR_GRANTS.map((g) => ({
      Sid: g.sid,
      Effect: "Allow",
      Action: [...g.actions],
      Resource: [...new Set([g.on].flat().flatMap(arnsOf))],
    })),
  };
}
