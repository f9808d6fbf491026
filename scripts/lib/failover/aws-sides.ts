import { readFileSync } from "node:fs";
import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { InvokeCommand, LambdaClient } from "@aws-sdk/client-lambda";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DynamoRegionControlStore, type RegionRole } from "@eo/core";
import { dynamoSide } from "./dynamo-side";
import type { RegionSide } from "./region-side";

/** One Region's resources, from the stage's SST outputs (`failover`) or a JSON file of the same shape. */
export interface AwsTargets {
  region: string;
  control: string;
  claims: string;
  ledger: string;
  resolver: string;
  sweeps: string;
}

/** Reads `{failover: {primary, standby}}` from the outputs file `sst deploy` writes; throws naming what is missing. */
export function awsTargets(file: string): Record<RegionRole, AwsTargets> {
  const outputs = JSON.parse(readFileSync(file, "utf8")) as { failover?: Record<RegionRole, AwsTargets> };
  const f = outputs.failover;
  for (const role of ["primary", "standby"] as const) {
    for (const k of ["region", "control", "claims", "ledger", "resolver", "sweeps"] as const) {
      if (typeof f?.[role]?.[k] !== "string")
        throw new Error(`${file} has no failover.${role}.${k} (deploy this version first)`);
    }
  }
  return f as Record<RegionRole, AwsTargets>;
}

/** Both AWS Regions, through DynamoDB and Lambda Invoke only: nothing here needs a control plane or a deploy. */
export function awsSides(targets: Record<RegionRole, AwsTargets>): Record<RegionRole, RegionSide> {
  const side = (role: RegionRole): RegionSide => {
    const t = targets[role];
    // Short timeouts and few retries: a Region that does not answer is a finding, not a reason to hang at 3 a.m.
    const base = { region: t.region, maxAttempts: 2, requestHandler: { requestTimeout: 5_000 } };
    const db = DynamoDBDocumentClient.from(new DynamoDBClient(base));
    const lambda = new LambdaClient({ ...base, requestHandler: { requestTimeout: 120_000 } });
    return dynamoSide(role, t.region, db, t, {
      health: async () => {
        // A strongly consistent read of the control answers only if the Region's DynamoDB does.
        await new DynamoRegionControlStore(db, t.control).read();
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
  };
  return { primary: side("primary"), standby: side("standby") };
}
