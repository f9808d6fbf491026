import { CreateTableCommand, DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import { ListQueuesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { describe, expect, it } from "vitest";
import { checkJava } from "../../packages/local/src/emulators/dynamodb-local";
import { isAlive } from "../../packages/local/src/emulators/managed-process";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import { startEmulators } from "../../packages/local/src/stack/start-emulators";

describe("the emulators", () => {
  it("start on loopback, answer, keep the two Regions apart, and stop with no process left behind", async () => {
    // prepare / act
    const emu = await startEmulators();
    const pids = emu.processes.map((p) => p.pid);
    try {
      const { primary, standby } = emu.regions;
      const ddb = (region: string) =>
        new DynamoDBClient({ endpoint: emu.endpoints.dynamodb, region, credentials: LOCAL_CREDENTIALS });
      await ddb(standby.region).send(
        new CreateTableCommand({
          TableName: "standby-only",
          BillingMode: "PAY_PER_REQUEST",
          AttributeDefinitions: [{ AttributeName: "pk", AttributeType: "S" }],
          KeySchema: [{ AttributeName: "pk", KeyType: "HASH" }],
        }),
      );
      const primaryTables = (await ddb(primary.region).send(new ListTablesCommand({}))).TableNames;
      const standbyTables = (await ddb(standby.region).send(new ListTablesCommand({}))).TableNames;
      const sqs = new SQSClient({
        endpoint: emu.endpoints.sqs,
        region: primary.region,
        credentials: LOCAL_CREDENTIALS,
      });
      const queues = (await sqs.send(new ListQueuesCommand({}))).QueueUrls ?? [];
      const ses = await fetch(`${emu.endpoints.ses}/health-check`);
      // assess
      expect(Object.values(emu.endpoints).every((u) => u.startsWith("http://127.0.0.1:"))).toBe(true);
      expect(primaryTables).toEqual(["claims", "consumer", "ledger", "totals"]);
      expect(standbyTables).toEqual(["claims", "consumer", "ledger", "standby-only", "totals"]);
      expect(queues.map((q) => q.split("/").pop()).sort()).toEqual([
        "primary-events-dlq.fifo",
        "primary-events.fifo",
        "primary-relay-failures",
        "primary-stream-job-failures",
        "standby-events-dlq.fifo",
        "standby-events.fifo",
        "standby-relay-failures",
        "standby-stream-job-failures",
      ]);
      expect(ses.ok).toBe(true);
      expect(pids.every(isAlive)).toBe(true);
    } finally {
      await emu.stop();
    }
    expect(pids.some(isAlive)).toBe(false);
  });

  it("runs a second copy beside the first without a collision", async () => {
    const [a, b] = await Promise.all([startEmulators(), startEmulators()]);
    try {
      expect(a.endpoints.dynamodb).not.toBe(b.endpoints.dynamodb);
      expect(a.endpoints.sqs).not.toBe(b.endpoints.sqs);
    } finally {
      await Promise.all([a.stop(), b.stop()]);
    }
    expect([...a.processes, ...b.processes].some((p) => isAlive(p.pid))).toBe(false);
  });

  it("says clearly when a port is taken", async () => {
    const first = await startEmulators();
    const port = Number(new URL(first.endpoints.sqs).port);
    try {
      await expect(startEmulators({ sqs: port })).rejects.toThrow(/fauxqs/);
    } finally {
      await first.stop();
    }
  });

  it("says how to fix it when Java is missing", () => {
    const path = process.env.PATH;
    process.env.PATH = "/nonexistent";
    try {
      expect(() => checkJava()).toThrow("Java 17+ not found: install openjdk-17-jdk-headless");
    } finally {
      process.env.PATH = path;
    }
  });
});
