import type { HttpRequest } from "@smithy/types";
import type { IdleWait } from "../../../local/src/pollers/timing";
import { DynamoModel } from "../dynamo/dynamo-model";
import { dynamoModelHandler } from "../dynamo/dynamo-model-handler";
import { attachStreams, streamsOf } from "../streams/attach-streams";
import { StreamModel } from "../streams/stream-model";
import { streamsModelHandler } from "../streams/streams-model-handler";
import type { ModelHandler } from "../transport/sim-transport";
import { signedRegion } from "../transport/sim-transport";
import type { SimClock } from "../world/clock";

/** The longest an idle stream reader waits before it reads again anyway (a fault, a shard closed by age). */
const IDLE_CAP_MS = 10_000;

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
      const dynamo = new DynamoModel({ clock: this.clock, region: name });
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

  /**
   * How the local runtime's stream readers wait after an empty read here: until the stream has a record they have
   * not seen, then a random share of their poll interval (when their next poll would have come), or at most
   * IDLE_CAP_MS. Delivery keeps the poll's latency; an idle stream costs no events.
   */
  readonly idleWait: IdleWait = (shard, ms, signal) =>
    new Promise<void>((resolve) => {
      const streams = this.region(shard.streamArn.split(":")[3] ?? "").streams;
      let timer = setTimeout(() => done(), IDLE_CAP_MS);
      const cancel = streams.whenNewRecords(shard.streamArn, shard.shardId, () => {
        clearTimeout(timer);
        timer = setTimeout(() => done(), Math.floor(Math.random() * ms));
      });
      const done = () => {
        cancel();
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      signal.addEventListener("abort", done, { once: true });
    });

  /** Answers a request with the model its target and Region name (the streams API shares the endpoint). */
  route(request: HttpRequest): ModelHandler {
    const r = this.region(signedRegion(request));
    const target = String(request.headers["x-amz-target"] ?? "");
    return target.startsWith("DynamoDBStreams_")
      ? streamsModelHandler(r.streams)
      : (dynamoModelHandler(r.dynamo) as unknown as ModelHandler);
  }
}
