import type { DynamoDBRecord } from "aws-lambda";
import { describe, expect, it } from "vitest";
import type { Invocation } from "../../src/pollers/invoke-handler";
import {
  type DeliveryPolicy,
  type DiscardedRecords,
  deliverInOrder,
} from "../../src/pollers/stream-delivery";
import { toLambdaRecord } from "../../src/pollers/stream-record";

const record = (seq: string): DynamoDBRecord => ({ eventName: "INSERT", dynamodb: { SequenceNumber: seq } });
const seqs = (records: DynamoDBRecord[]) => records.map((r) => r.dynamodb?.SequenceNumber);

/** Runs deliverInOrder with a function whose answers `answer` picks, recording every invocation. */
async function deliver(
  records: DynamoDBRecord[],
  answer: (batch: DynamoDBRecord[], n: number) => Invocation<unknown>,
  policy: Partial<DeliveryPolicy> = {},
) {
  const invocations: (string | undefined)[][] = [];
  const discarded: DiscardedRecords[] = [];
  const settled = await deliverInOrder(
    records,
    async (batch) => {
      invocations.push(seqs(batch));
      return answer(batch, invocations.length);
    },
    {
      maxRetryAttempts: 1,
      bisectBatchOnFunctionError: true,
      retryDelayMs: 1,
      onFailure: async (info) => void discarded.push(info),
      signal: new AbortController().signal,
      ...policy,
    },
  );
  return { settled, invocations, discarded };
}

const failing = (): Invocation<unknown> => ({ ok: false, error: "Error: boom" });

describe("deliverInOrder", () => {
  it("bisects an always-failing batch and discards each half once its retries are spent, in order", async () => {
    // prepare
    const records = ["1", "2", "3", "4"].map(record);

    // act
    const { settled, invocations, discarded } = await deliver(records, failing);

    // assess
    expect(settled).toBe(true);
    expect(invocations).toEqual([
      ["1", "2", "3", "4"],
      ["1", "2"],
      ["3", "4"],
    ]);
    expect(discarded.map((d) => [seqs(d.records), d.attempts, d.error])).toEqual([
      [["1", "2"], 2, "Error: boom"],
      [["3", "4"], 2, "Error: boom"],
    ]);
  });

  it("fails the whole batch when batchItemFailures names a record that is not in it", async () => {
    // prepare
    const records = ["1", "2"].map(record);
    const unknownId = (_: DynamoDBRecord[], n: number): Invocation<unknown> =>
      n === 1
        ? { ok: true, result: { batchItemFailures: [{ itemIdentifier: "999" }] } }
        : { ok: true, result: {} };

    // act
    const { invocations, discarded } = await deliver(records, unknownId, {
      bisectBatchOnFunctionError: false,
    });

    // assess
    expect(invocations).toEqual([
      ["1", "2"],
      ["1", "2"],
    ]);
    expect(discarded).toEqual([]);
  });

  it("retries a failing batch until it succeeds when retries are unbounded (the relay's mapping: -1)", async () => {
    // prepare: the function fails eight times (an authority it cannot read), then succeeds
    const records = ["1", "2"].map(record);
    const blip = (_: DynamoDBRecord[], n: number): Invocation<unknown> =>
      n <= 8 ? failing() : { ok: true, result: {} };

    // act
    const { settled, invocations, discarded } = await deliver(records, blip, {
      maxRetryAttempts: Number.POSITIVE_INFINITY,
      bisectBatchOnFunctionError: false,
    });

    // assess: every record delivered, nothing given up
    expect(settled).toBe(true);
    expect(invocations).toHaveLength(9);
    expect(discarded).toEqual([]);
  });

  it("leaves the records unsettled, not discarded, when the poller stops during retries", async () => {
    // prepare
    const stop = new AbortController();
    const failThenStop = (_: DynamoDBRecord[], n: number): Invocation<unknown> => {
      if (n === 2) stop.abort();
      return failing();
    };

    // act
    const { settled, discarded } = await deliver(["1", "2"].map(record), failThenStop, {
      maxRetryAttempts: 5,
      signal: stop.signal,
    });

    // assess
    expect(settled).toBe(false);
    expect(discarded).toEqual([]);
  });
});

describe("toLambdaRecord", () => {
  it("gives binary attributes as base64 and nested values in Lambda's JSON form", () => {
    // prepare
    const sdkRecord = {
      eventID: "e1",
      eventName: "INSERT" as const,
      awsRegion: "ddblocal",
      dynamodb: {
        ApproximateCreationDateTime: new Date(1_700_000_000_000),
        Keys: { pk: { S: "k" } },
        NewImage: {
          pk: { S: "k" },
          raw: { B: new Uint8Array([1, 2, 3]) },
          nested: { M: { list: { L: [{ N: "1" }, { BS: [new Uint8Array([255])] }, { NULL: true }] } } },
        },
        SequenceNumber: "100",
      },
    };

    // act
    const out = toLambdaRecord(sdkRecord, { region: "eu-west-1", eventSourceARN: "arn:stream" });

    // assess
    expect(out).toMatchObject({
      awsRegion: "eu-west-1",
      eventSource: "aws:dynamodb",
      eventSourceARN: "arn:stream",
    });
    expect(out.dynamodb?.ApproximateCreationDateTime).toBe(1_700_000_000);
    expect(out.dynamodb?.NewImage).toEqual({
      pk: { S: "k" },
      raw: { B: "AQID" },
      nested: { M: { list: { L: [{ N: "1" }, { BS: ["/w=="] }, { NULL: true }] } } },
    });
  });
});
