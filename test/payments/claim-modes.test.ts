import { DescribeTimeToLiveCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { claimDocumentClient } from "../../packages/core/src/aws/document-client";
import { LOCAL_CREDENTIALS } from "../../packages/local/src/stack/regions";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";

// MRSC mode: the claim table has no TTL and takes no transactions, so the claim store may use
// only single-item conditional writes and must read expiry itself.
process.env.CLAIM_MODE = "mrsc";
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);
const claimTableCalls: string[] = [];

beforeAll(() => {
  // The claim store's own client in MRSC mode (the one that can raise ReplicatedWriteConflictException).
  claimDocumentClient(undefined, true).middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as {
        TableName?: string;
        TransactItems?: Array<Record<string, { TableName?: string }>>;
      };
      const tables = input.TransactItems
        ? input.TransactItems.map((op) => Object.values(op)[0]?.TableName)
        : [input.TableName];
      if (tables.includes("claims")) claimTableCalls.push(context.commandName ?? "?");
      return next(args);
    },
    { step: "initialize", name: "claimTableSpy" },
  );
});
afterAll(() => {
  delete process.env.CLAIM_MODE;
});

describe("claim store in MRSC mode (no TTL, no transactions)", () => {
  it("pays, replays, voids and expires with single-item conditional writes only", async () => {
    // prepare
    const r = stack().emulators.regions.primary;
    const ddb = new DynamoDBClient({
      endpoint: stack().emulators.endpoints.dynamodb,
      region: r.region,
      credentials: LOCAL_CREDENTIALS,
    });
    const ttl = await ddb.send(new DescribeTimeToLiveCommand({ TableName: r.claimTable }));
    const token = await api().token("u1");
    const key = newKey();
    // act
    const first = await api().pay(token, key, order42());
    const repeat = await api().pay(token, key, order42());
    const voided = await api().resolve(token, newKey());
    await api().local("POST", "/clock", { advance_s: 7_200 });
    const afterWindow = await api().pay(token, key, order42());
    // assess
    expect(ttl.TimeToLiveDescription?.TimeToLiveStatus ?? "DISABLED").toBe("DISABLED");
    expect([first.status, repeat.status, afterWindow.status]).toEqual([201, 201, 201]);
    expect(afterWindow.headers.get("idempotent-replayed")).toBe("true");
    expect(voided.body.state).toBe("VOID");
    expect(claimTableCalls.length).toBeGreaterThan(0);
    expect(claimTableCalls.filter((c) => /Transact/.test(c))).toEqual([]);
  });
});
