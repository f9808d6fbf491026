import type { HttpRequest } from "@smithy/types";
import { DynamoModel } from "../dynamo/dynamo-model";
import { dynamoModelHandler } from "../dynamo/dynamo-model-handler";
import { attachStreams, streamsOf } from "../streams/attach-streams";
import { StreamModel } from "../streams/stream-model";
import { streamsModelHandler } from "../streams/streams-model-handler";
import type { ModelHandler } from "../transport/sim-transport";
import { signedRegion } from "../transport/sim-transport";
import type { SimClock } from "../world/clock";

/** One Region's DynamoDB: its tables and their streams. */
export interface RegionDynamo {
  dynamo: DynamoModel;
  streams: StreamModel;
}

/**
 * DynamoDB as DynamoDB Local serves it: one endpoint for the tables and their streams, a separate database per Region
 * (the Region the request was signed for), made on first use.
 */
export class SimDynamoDb {
  readonly regions = new Map<string, RegionDynamo>();

  constructor(private readonly clock: SimClock) {}

  /** The Region's tables and streams, made on first use. */
  region(name: string): RegionDynamo {
    let r = this.regions.get(name);
    if (!r) {
      const dynamo = new DynamoModel({ clock: this.clock });
      // No read limit by default: the local runtime's mapping polls 10 times a second and the local replicator reads
      // beside it, where AWS's mapping polls 4 and global tables' replication is not a reader of the customer's
      // quota. The nemesis throttles reads on purpose (StreamModel.throttleReadsUntil).
      const streams = new StreamModel({
        clock: this.clock,
        region: name,
        discover: () => streamsOf(dynamo),
        readsPerShardPerSecond: Number.POSITIVE_INFINITY,
      });
      attachStreams(dynamo, streams);
      r = { dynamo, streams };
      this.regions.set(name, r);
    }
    return r;
  }

  /** Answers a request with the model its target and Region name (the streams API shares the endpoint). */
  route(request: HttpRequest): ModelHandler {
    const r = this.region(signedRegion(request));
    const target = String(request.headers["x-amz-target"] ?? "");
    return target.startsWith("DynamoDBStreams_")
      ? streamsModelHandler(r.streams)
      : (dynamoModelHandler(r.dynamo) as unknown as ModelHandler);
  }
}
