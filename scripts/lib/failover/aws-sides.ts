import { readFileSync } from "node:fs";
import { CloudWatchClient, GetMetricStatisticsCommand } from "@aws-sdk/client-cloudwatch";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { DynamoDBDocumentClient, GetCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoRegionControlStore, type RegionRole } from "@eo/core";
import { dynamoSide } from "./dynamo-side";
import type { AuthoritySide, FailoverSides, RegionSide } from "./region-side";

/** One Region's resources, from the stage's SST outputs (`failover`) or a JSON file of the same shape. */
export interface AwsTargets {
  region: string;
  control: string;
  claims: string;
  ledger: string;
  resolver: string;
  sweeps: string;
}

/** Where the authority is, from the stage's outputs (`failover.authority`). */
export interface AwsAuthority {
  table: string;
  mode: "mrsc" | "single-region";
  /** The Regions where it can be read and written: both replicas (MRSC), or the one Region that holds it. */
  regions: string[];
  witness?: string;
}

/** Reads `{failover: {primary, standby, authority}}` from the outputs file `sst deploy` writes; throws naming what is missing. */
export function awsTargets(file: string): Record<RegionRole, AwsTargets> & { authority: AwsAuthority } {
  const outputs = JSON.parse(readFileSync(file, "utf8")) as {
    failover?: Record<RegionRole, AwsTargets> & { authority?: AwsAuthority };
  };
  const f = outputs.failover;
  const a = f?.authority;
  if (typeof a?.table !== "string" || !Array.isArray(a.regions) || a.regions.length === 0)
    throw new Error(
      `${file} has no failover.authority with a table and its Regions (deploy this version first)`,
    );
  for (const role of ["primary", "standby"] as const) {
    for (const k of ["region", "control", "claims", "ledger", "resolver", "sweeps"] as const) {
      if (typeof f?.[role]?.[k] !== "string")
        throw new Error(`${file} has no failover.${role}.${k} (deploy this version first)`);
    }
  }
  return f as Record<RegionRole, AwsTargets> & { authority: AwsAuthority };
}

/**
 * The authority through whichever of its Regions answers first: in MRSC mode each replica's strongly consistent
 * read and conditional write see the latest value, so any one of them will do while it reaches its quorum.
 */
export function awsAuthority(a: AwsAuthority): AuthoritySide {
  const stores = a.regions.map(
    (region) =>
      new DynamoRegionControlStore(
        DynamoDBDocumentClient.from(
          new DynamoDBClient({ region, maxAttempts: 2, requestHandler: { requestTimeout: 5_000 } }),
        ),
        a.table,
      ),
  );
  const first = async <T>(call: (s: DynamoRegionControlStore) => Promise<T>): Promise<T> => {
    const errors: string[] = [];
    for (const [i, s] of stores.entries()) {
      try {
        return await call(s);
      } catch (err) {
        errors.push(`${a.regions[i]}: ${(err as Error).message}`);
      }
    }
    throw new Error(`no Region of the authority answered (${errors.join("; ")})`);
  };
  return {
    where: `${a.mode === "mrsc" ? "MRSC" : "single-Region"} table ${a.table} (${a.regions.join(", ")}${a.witness ? `; witness ${a.witness}` : ""})`,
    read: () => first((s) => s.read()),
    write: (next) => first((s) => s.write(next)),
  };
}

/** Both AWS Regions, through DynamoDB and Lambda Invoke only: nothing here needs a control plane or a deploy. */
export function awsSides(
  targets: Record<RegionRole, AwsTargets> & { authority: AwsAuthority },
): FailoverSides {
  const side = (role: RegionRole): RegionSide => {
    const t = targets[role];
    // Short timeouts and few retries: a Region that does not answer is a finding, not a reason to hang at 3 a.m.
    const base = { region: t.region, maxAttempts: 2, requestHandler: { requestTimeout: 5_000 } };
    const db = DynamoDBDocumentClient.from(new DynamoDBClient(base));
    const lambda = new LambdaClient({ ...base, requestHandler: { requestTimeout: 120_000 } });
    const cloudwatch = new CloudWatchClient(base);
    const inner = dynamoSide(role, t.region, db, t, {
      health: async () => {
        // A strongly consistent read of the ledger's replica here answers only if the Region's DynamoDB does (the
        // control table may live in another Region: CONTROL_MODE=single-region).
        await db.send(
          new GetCommand({
            TableName: t.ledger,
            Key: { pk: "HEALTH#failover", sk: "HEALTH" },
            ConsistentRead: true,
          }),
        );
        return { ok: true, detail: `DynamoDB in ${t.region} answers` };
      },
      runJob: async (job, event) => {
        const out = await lambda.send(
          new InvokeCommand({
            FunctionName: job === "resolver" ? t.resolver : t.sweeps,
            Payload: JSON.stringify(event),
          }),
        );
        const text = out.Payload ? Buffer.from(out.Payload).toString("utf8") : "{}";
        if (out.FunctionError) throw new Error(`${job} in ${t.region} failed: ${text.slice(0, 300)}`);
        return JSON.parse(text || "{}") as Record<string, unknown>;
      },
    });
    return {
      ...inner,
      // The metric lives in the sending Region, one series per receiving Region (DynamoDB global tables).
      recentReplicationLatencyMs: async (receivingRegion) => {
        const out = await cloudwatch.send(
          new GetMetricStatisticsCommand({
            Namespace: "AWS/DynamoDB",
            MetricName: "ReplicationLatency",
            Dimensions: [
              { Name: "TableName", Value: t.ledger },
              { Name: "ReceivingRegion", Value: receivingRegion },
            ],
            StartTime: new Date(Date.now() - 15 * 60_000),
            EndTime: new Date(),
            Period: 60,
            Statistics: ["Maximum"],
          }),
        );
        const maxima = (out.Datapoints ?? []).map((d) => d.Maximum ?? 0);
        return maxima.length > 0 ? Math.max(...maxima) : undefined;
      },
    };
  };
  return { primary: side("primary"), standby: side("standby"), authority: awsAuthority(targets.authority) };
}
