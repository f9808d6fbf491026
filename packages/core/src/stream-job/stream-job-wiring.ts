import { documentClient } from "../aws/document-client";
import { DynamoTotalsSink } from "./dynamo-totals-sink";
import type { TotalsSink } from "./totals-sink";

let sink: TotalsSink | undefined;

/** The job's sink on this Region's totals table (`TOTALS_TABLE`), built once per process. */
export function totalsSink(env: NodeJS.ProcessEnv = process.env): TotalsSink {
  const table = env.TOTALS_TABLE;
  if (!table) throw new Error("TOTALS_TABLE is not set: the stream job has no sink");
  sink ??= new DynamoTotalsSink(documentClient(), table);
  return sink;
}
