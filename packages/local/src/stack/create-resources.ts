import {
  CreateTableCommand,
  type CreateTableCommandInput,
  DynamoDBClient,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { EVENTS_QUEUE } from "../../../../stacks/events-queue";
import { LOCAL_CREDENTIALS, type RegionResources } from "./regions";

export interface QueueUrls {
  events: string;
  eventsDlq: string;
  relayFailures: string;
  streamJobFailures: string;
}

/** The redrive limit of the events queue: a message received this many times goes to the DLQ (as deployed). */
export const EVENTS_MAX_RECEIVE_COUNT = EVENTS_QUEUE.maxReceiveCount;
/** The events queue's visibility timeout as deployed (6× the worker's timeout); tests shorten it. */
export const EVENTS_VISIBILITY_TIMEOUT_S = EVENTS_QUEUE.visibilityTimeoutS;

const pkSk = (name: string): CreateTableCommandInput => ({
  TableName: name,
  BillingMode: "PAY_PER_REQUEST",
  AttributeDefinitions: [
    { AttributeName: "pk", AttributeType: "S" },
    { AttributeName: "sk", AttributeType: "S" },
  ],
  KeySchema: [
    { AttributeName: "pk", KeyType: "HASH" },
    { AttributeName: "sk", KeyType: "RANGE" },
  ],
});

/** The stream a DynamoDB global table (MREC) needs on every replica. */
const GLOBAL_TABLE_STREAM = { StreamEnabled: true, StreamViewType: "NEW_AND_OLD_IMAGES" } as const;

/** The table definitions, mirroring stacks/tables.ts. */
export function tableDefinitions(r: RegionResources): { input: CreateTableCommandInput; ttl?: string }[] {
  const ledger = withIndex(pkSk(r.ledgerTable), "gsi1", ["gsi1pk", "S"], ["gsi1sk", "S"]);
  ledger.StreamSpecification = GLOBAL_TABLE_STREAM;
  // The consumer table is an MREC global table too: the local replicator reads its stream, as AWS's does.
  const consumer = { ...pkSk(r.consumerTable), StreamSpecification: GLOBAL_TABLE_STREAM };
  return [
    { input: totalsTable(r.totalsTable) },
    {
      input: {
        TableName: r.claimTable,
        BillingMode: "PAY_PER_REQUEST",
        AttributeDefinitions: [{ AttributeName: "id", AttributeType: "S" }],
        KeySchema: [{ AttributeName: "id", KeyType: "HASH" }],
        // Read only when the claim table runs as an MREC global table (the caller's choice); unread otherwise.
        StreamSpecification: GLOBAL_TABLE_STREAM,
      },
      // A multi-Region strongly consistent table has no TTL: the claim store never relies on it.
      ttl: process.env.CLAIM_MODE === "mrsc" ? undefined : "expiration",
    },
    { input: ledger },
    { input: consumer, ttl: "expires_at" },
  ];
}

/** The stream job's sink: pk/sk and the sparse index `tags` (bpk, btag) that only open windows' keys carry. */
function totalsTable(name: string): CreateTableCommandInput {
  return withIndex(pkSk(name), "tags", ["bpk", "S"], ["btag", "N"]);
}

/** Adds a global secondary index (all attributes projected) on a hash and a range attribute to a table definition. */
function withIndex(
  t: CreateTableCommandInput,
  name: string,
  hash: [string, "S" | "N"],
  range: [string, "S" | "N"],
): CreateTableCommandInput {
  t.AttributeDefinitions?.push(
    { AttributeName: hash[0], AttributeType: hash[1] },
    { AttributeName: range[0], AttributeType: range[1] },
  );
  t.GlobalSecondaryIndexes = [
    {
      IndexName: name,
      KeySchema: [
        { AttributeName: hash[0], KeyType: "HASH" },
        { AttributeName: range[0], KeyType: "RANGE" },
      ],
      Projection: { ProjectionType: "ALL" },
    },
  ];
  return t;
}

/** Creates one Region's tables in DynamoDB Local. */
export async function createTables(endpoint: string, r: RegionResources): Promise<void> {
  const ddb = new DynamoDBClient({ endpoint, region: r.region, credentials: LOCAL_CREDENTIALS });
  for (const def of tableDefinitions(r)) {
    await ddb.send(new CreateTableCommand(def.input));
    if (def.ttl) {
      await ddb.send(
        new UpdateTimeToLiveCommand({
          TableName: def.input.TableName,
          TimeToLiveSpecification: { AttributeName: def.ttl, Enabled: true },
        }),
      );
    }
  }
  ddb.destroy();
}

/**
 * Creates one Region's FIFO queue, its FIFO DLQ with the redrive policy, and the relay's failure queue. The events
 * queue gets the stacks' high-throughput attributes, which fauxqs stores and reports but does not act on: it
 * deduplicates across the whole queue (the same drops for our ids, stacks/events-queue.ts) and has no quota.
 */
export async function createQueues(endpoint: string, r: RegionResources): Promise<QueueUrls> {
  const sqs = new SQSClient({ endpoint, region: r.region, credentials: LOCAL_CREDENTIALS });
  const dlq = await sqs.send(
    new CreateQueueCommand({ QueueName: r.eventsDlq, Attributes: { FifoQueue: "true" } }),
  );
  const dlqArn = await sqs.send(
    new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }),
  );
  const events = await sqs.send(
    new CreateQueueCommand({
      QueueName: r.eventsQueue,
      Attributes: {
        FifoQueue: "true",
        DeduplicationScope: EVENTS_QUEUE.deduplicationScope,
        FifoThroughputLimit: EVENTS_QUEUE.fifoThroughputLimit,
        // Tests shorten it (env EVENTS_VISIBILITY_TIMEOUT_S) so that a redelivery takes seconds.
        VisibilityTimeout: String(
          Number(process.env.EVENTS_VISIBILITY_TIMEOUT_S ?? EVENTS_VISIBILITY_TIMEOUT_S),
        ),
        RedrivePolicy: JSON.stringify({
          deadLetterTargetArn: dlqArn.Attributes?.QueueArn,
          maxReceiveCount: EVENTS_MAX_RECEIVE_COUNT,
        }),
      },
    }),
  );
  const failures = await sqs.send(new CreateQueueCommand({ QueueName: r.relayFailuresQueue }));
  const jobFailures = await sqs.send(new CreateQueueCommand({ QueueName: r.streamJobFailuresQueue }));
  sqs.destroy();
  return {
    events: must(events.QueueUrl),
    eventsDlq: must(dlq.QueueUrl),
    relayFailures: must(failures.QueueUrl),
    streamJobFailures: must(jobFailures.QueueUrl),
  };
}

function must(url: string | undefined): string {
  if (!url) throw new Error("CreateQueue returned no QueueUrl");
  return url;
}
