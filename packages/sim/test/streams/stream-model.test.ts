import {
  DescribeStreamCommand,
  ExpiredIteratorException,
  GetRecordsCommand,
  GetShardIteratorCommand,
  LimitExceededException,
  TrimmedDataAccessException,
} from "@aws-sdk/client-dynamodb-streams";
import { describe, expect, it } from "vitest";
import { StreamModel } from "../../src/streams/stream-model";
import { modelStreamsClient } from "../../src/streams/streams-model-handler";

function world(opts: { rolloverMs?: number; retentionMs?: number } = {}) {
  let now = Date.UTC(2026, 11, 6);
  const clock = { now: () => now };
  const model = new StreamModel({ clock, region: "eu-west-1", ...opts });
  const arn = model.enable("ledger", "NEW_AND_OLD_IMAGES");
  let seq = 0n;
  const write = (pk: string, n: number) =>
    model.record(
      "ledger",
      { eventName: "INSERT", keys: { pk: { S: pk } }, newImage: { pk: { S: pk }, n: { N: String(n) } } },
      ++seq,
    );
  return {
    model,
    arn,
    write,
    client: modelStreamsClient(model, "eu-west-1"),
    advance: (ms: number) => (now += ms),
  };
}

async function firstIterator(w: ReturnType<typeof world>, type: "TRIM_HORIZON" | "LATEST" = "TRIM_HORIZON") {
  const d = await w.client.send(new DescribeStreamCommand({ StreamArn: w.arn }));
  const shard = d.StreamDescription?.Shards?.[0]?.ShardId ?? "";
  const it = await w.client.send(
    new GetShardIteratorCommand({ StreamArn: w.arn, ShardId: shard, ShardIteratorType: type }),
  );
  return it.ShardIterator ?? "";
}

describe("DynamoDB Streams in the simulation", () => {
  it("gives each item's changes in write order through the SDK's own client", async () => {
    // prepare
    const w = world();
    w.write("a", 1);
    w.write("b", 1);
    w.write("a", 2);
    // act
    const page = await w.client.send(new GetRecordsCommand({ ShardIterator: await firstIterator(w) }));
    // assess
    const seen = (page.Records ?? []).map((r) => `${r.dynamodb?.Keys?.pk?.S}${r.dynamodb?.NewImage?.n?.N}`);
    expect(seen).toEqual(["a1", "b1", "a2"]);
    expect(page.Records?.[0]?.eventSource).toBe("aws:dynamodb");
    expect(page.NextShardIterator).toBeTruthy();
  });

  it("throttles a second reader of a shard past five reads a second (LimitExceededException)", async () => {
    // prepare
    const w = world();
    const it = await firstIterator(w);
    // act
    const reads = await Promise.allSettled(
      Array.from({ length: 6 }, () => w.client.send(new GetRecordsCommand({ ShardIterator: it }))),
    );
    w.advance(1_000);
    const later = await w.client.send(new GetRecordsCommand({ ShardIterator: it }));
    // assess
    const refused = reads
      .filter((r) => r.status === "rejected")
      .map((r) => (r as PromiseRejectedResult).reason);
    expect(refused).toHaveLength(1);
    expect(refused[0]).toBeInstanceOf(LimitExceededException);
    expect(later.Records).toEqual([]);
  });

  it("expires an iterator after 15 minutes", async () => {
    // prepare
    const w = world();
    const it = await firstIterator(w);
    w.advance(15 * 60_000 + 1);
    // act
    const read = w.client.send(new GetRecordsCommand({ ShardIterator: it }));
    // assess
    await expect(read).rejects.toBeInstanceOf(ExpiredIteratorException);
  });

  it("rolls a shard over after four hours: the parent closes, read to its end it gives no next iterator", async () => {
    // prepare
    const w = world({ rolloverMs: 4 * 3_600_000 });
    w.write("a", 1);
    w.advance(4 * 3_600_000);
    w.write("a", 2);
    // act
    const d = await w.client.send(new DescribeStreamCommand({ StreamArn: w.arn }));
    const parent = await w.client.send(new GetRecordsCommand({ ShardIterator: await firstIterator(w) }));
    // assess
    const shards = d.StreamDescription?.Shards ?? [];
    expect(shards).toHaveLength(2);
    expect(shards[1]?.ParentShardId).toBe(shards[0]?.ShardId);
    expect(shards[0]?.SequenceNumberRange?.EndingSequenceNumber).toBeDefined();
    expect(parent.Records?.map((r) => r.dynamodb?.NewImage?.n?.N)).toEqual(["1"]);
    expect(parent.NextShardIterator).toBeUndefined();
  });

  it("trims records older than 24 hours: an old position is refused (TrimmedDataAccessException)", async () => {
    // prepare
    const w = world({ rolloverMs: 100 * 3_600_000 });
    w.write("a", 1);
    const d = await w.client.send(new DescribeStreamCommand({ StreamArn: w.arn }));
    const shard = d.StreamDescription?.Shards?.[0]?.ShardId ?? "";
    w.advance(23 * 3_600_000);
    w.write("a", 2);
    w.advance(2 * 3_600_000);
    // act
    const old = w.client.send(
      new GetShardIteratorCommand({
        StreamArn: w.arn,
        ShardId: shard,
        ShardIteratorType: "AT_SEQUENCE_NUMBER",
        SequenceNumber: "1".padStart(21, "0"),
      }),
    );
    const horizon = await w.client.send(new GetRecordsCommand({ ShardIterator: await firstIterator(w) }));
    // assess
    await expect(old).rejects.toBeInstanceOf(TrimmedDataAccessException);
    expect(horizon.Records?.map((r) => r.dynamodb?.NewImage?.n?.N)).toEqual(["2"]);
  });
});
