import { randomUUID } from "node:crypto";
import { QueryCommand } from "@aws-sdk/lib-dynamodb";
import { DynamoLocatorStore, DynamoVersionedStore, documentClient, loadConfig } from "@eo/core";
import { afterEach, describe, expect, it } from "vitest";
import { useLocalStack } from "../support/local-stack";

useLocalStack();
const table = () => loadConfig().consumerTable;

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_VERSION_CHECK;
  delete process.env.EO_TEST_UNSAFE_CONDITION_ON_ITEM;
});

describe("branch V: versions from one counter", () => {
  // Device D1's journal counter: LIKE is 41, UNLIKE 42, and the resent LIKE arrives last.
  async function likeUnlikeThenResentLike() {
    const store = new DynamoVersionedStore<string>(documentClient(), table());
    const key = { pk: `REACTION#D1#post-${randomUUID()}`, sk: "REACTION" };
    const outcomes = [
      await store.applyIfNewer(key, 41, "LIKE"),
      await store.applyIfNewer(key, 42, "UNLIKE"),
      await store.applyIfNewer(key, 41, "LIKE"),
    ];
    return { outcomes, final: await store.read(key) };
  }

  it("keeps UNLIKE (42) when the resent LIKE (41) arrives last, and answers the resend with what the item holds", async () => {
    // act
    const { outcomes, final } = await likeUnlikeThenResentLike();
    // assess
    expect(outcomes.slice(0, 2)).toEqual([{ applied: true }, { applied: true }]);
    expect(outcomes[2]).toEqual({ applied: false, current: { version: 42, value: "UNLIKE" } });
    expect(final).toEqual({ version: 42, value: "UNLIKE" });
  });

  it("without the version check (guard off) the resent LIKE undoes the UNLIKE", async () => {
    process.env.EO_TEST_UNSAFE_NO_VERSION_CHECK = "1";
    const { final } = await likeUnlikeThenResentLike();
    expect(final?.value).toBe("LIKE");
  });

  it("refuses a version that is no counter value, before any write", async () => {
    const store = new DynamoVersionedStore<string>(documentClient(), table());
    await expect(store.applyIfNewer({ pk: "REACTION#x", sk: "REACTION" }, -1, "LIKE")).rejects.toThrow(
      /whole number from 0 up/,
    );
  });
});

describe("branch M: condition on the locator, tombstone after delete", () => {
  // The parser stores m9 in Inbox; the user moves it to Archive; SQS redelivers the parse; later m9 is deleted.
  async function parseMoveRedeliver() {
    const store = new DynamoLocatorStore(documentClient(), table());
    const user = `u-${randomUUID()}`;
    const locator = { pk: `M#${user}#m9`, sk: "LOCATOR" };
    const folder = (name: string) => ({ pk: `FOLDER#${user}#${name}`, sk: "m9" });
    const parse = () => store.putOnce(locator, folder("Inbox"), { subject: "your receipt" });
    const first = await parse();
    const moved = await store.move(locator, folder("Inbox"), folder("Archive"));
    const redelivered = await parse();
    const afterMove = await foldersOf(user);
    const deleted = await store.remove(locator);
    const redeliveredAgain = await parse();
    return { first, moved, redelivered, afterMove, deleted, redeliveredAgain, store, locator, user };
  }

  it("the redelivered parse does nothing after the move, and still nothing after the delete", async () => {
    // act
    const r = await parseMoveRedeliver();
    // assess
    expect(r.first).toEqual({ stored: true });
    expect(r.moved).toBe(true);
    expect(r.redelivered).toMatchObject({ stored: false, locator: { state: "LIVE" } });
    expect(r.afterMove).toEqual(["Archive"]);
    expect(r.deleted).toBe(true);
    expect(r.redeliveredAgain).toMatchObject({ stored: false, locator: { state: "TOMBSTONE" } });
    expect(await foldersOf(r.user)).toEqual([]);
    expect(await r.store.read(r.locator)).toEqual({ key: r.locator, state: "TOMBSTONE" });
  });

  it("with the condition on the folder item (guard off) m9 reappears in Inbox after the move", async () => {
    process.env.EO_TEST_UNSAFE_CONDITION_ON_ITEM = "1";
    const r = await parseMoveRedeliver();
    expect(r.redelivered).toEqual({ stored: true });
    expect(r.afterMove).toEqual(["Archive", "Inbox"]);
  });
});

// The folders m9 is in, read from the items themselves (not through the locator).
async function foldersOf(user: string): Promise<string[]> {
  const found: string[] = [];
  for (const name of ["Inbox", "Archive"]) {
    const out = await documentClient().send(
      new QueryCommand({
        TableName: loadConfig().consumerTable,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `FOLDER#${user}#${name}` },
        ConsistentRead: true,
      }),
    );
    if ((out.Items ?? []).length > 0) found.push(name);
  }
  return found.sort();
}
