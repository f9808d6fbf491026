import type { DynamoModel } from "../dynamo/dynamo-model";
import { describeTable } from "../dynamo/ops-tables";
import type { DiscoveredStream, StreamModel, StreamViewType } from "./stream-model";

/** What a table store's DescribeTable says of each table whose stream is on. */
export function streamsOf(dynamo: DynamoModel): DiscoveredStream[] {
  const out: DiscoveredStream[] = [];
  for (const t of dynamo.tables.values()) {
    if (!t.stream?.StreamEnabled) continue;
    const d = describeTable(dynamo, { TableName: t.name }).Table as Record<string, unknown>;
    out.push({
      table: t.name,
      arn: String(d.LatestStreamArn),
      label: String(d.LatestStreamLabel),
      viewType: (t.stream.StreamViewType ?? "NEW_AND_OLD_IMAGES") as StreamViewType,
    });
  }
  return out;
}

/** Feeds every change the table store applies into its Region's streams, in the order it applied them. */
export function attachStreams(dynamo: DynamoModel, streams: StreamModel): () => void {
  return dynamo.onChange((r) =>
    streams.record(
      r.table,
      {
        eventName: r.eventName,
        keys: r.keys,
        ...(r.oldImage ? { oldImage: r.oldImage } : {}),
        ...(r.newImage ? { newImage: r.newImage } : {}),
        ...(r.byTtl ? { byTtl: true } : {}),
      },
      r.sequence,
    ),
  );
}
