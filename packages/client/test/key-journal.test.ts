import { mkdtemp, readdir, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createPaymentsClient, type JournalEntry } from "../src/index";
import { fileJournal } from "../src/journal/file-journal";
import { fakeApi, order42, PAYMENT_ID, processing, succeeded } from "./support/fake-api";

const entry = (over: Partial<JournalEntry> = {}): JournalEntry => ({
  order_id: "42",
  key: "0193a5e2-7c4b-7def-8a12-3b4c5d6e7f80",
  state: "pending",
  created_at: 1,
  updated_at: 1,
  ...over,
});
const resolved = (state: string) => ({
  status: 200,
  body: state === "VOID" ? { state } : { state, payment_id: PAYMENT_ID },
});

describe("the key is born before the first send and written to the app's local journal (Part 2)", () => {
  it("journals a UUIDv7 key before the first fetch call", async () => {
    // prepare: the fake fetch reads the journal at the moment of the first send
    const api = fakeApi([succeeded()]);
    let journaledAtSend: JournalEntry | undefined;
    const fetch = api.options.fetch as typeof globalThis.fetch;
    const client = createPaymentsClient({
      ...api.options,
      fetch: async (input, init) => {
        journaledAtSend ??= await api.journal.get("42");
        return fetch(input, init);
      },
    });
    // act
    const result = await client.pay(order42());
    // assess
    expect(journaledAtSend?.key).toBe(api.calls[0]?.key);
    expect(journaledAtSend?.key).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(journaledAtSend?.state).toBe("pending");
    expect(await api.journal.get("42")).toMatchObject({
      state: "succeeded",
      payment_id: PAYMENT_ID,
      key: result.key,
    });
  });

  it("reuses the journaled key of a restarted app, and makes a new one only for a voided or declined key", async () => {
    const api = fakeApi([succeeded()]);
    for (const state of ["pending", "processing", "succeeded"] as const) {
      await api.journal.put(entry({ state }));
      await createPaymentsClient(api.options).pay(order42());
      expect(api.calls.at(-1)?.key).toBe(entry().key);
    }
    for (const state of ["voided", "declined"] as const) {
      await api.journal.put(entry({ state }));
      await createPaymentsClient(api.options).pay(order42());
      expect(api.calls.at(-1)?.key, state).not.toBe(entry().key);
      expect(api.events).toContainEqual(expect.objectContaining({ type: "key-made", replaces: entry().key }));
    }
  });

  it("refuses an order that breaks the contract before making a key: a client bug, nothing sent", async () => {
    const api = fakeApi([succeeded()]);
    const result = await createPaymentsClient(api.options).pay(order42({ amount: 0 }));
    expect(result).toMatchObject({
      kind: "refused",
      reason: "invalid-request",
      client_bug: true,
      attempts: 0,
    });
    expect(result.kind === "refused" && result.detail).toMatch(/amount must be between 1 and 99999999/);
    expect(api.calls).toHaveLength(0);
    expect(await api.journal.get("42")).toBeUndefined();
  });

  it("sends a double tap in the same app under one key", async () => {
    const api = fakeApi([succeeded()]);
    const client = createPaymentsClient(api.options);
    await Promise.all([client.pay(order42()), client.pay(order42())]);
    expect(new Set(api.calls.map((c) => c.key)).size).toBe(1);
  });
});

describe("did it go through? (Part 4)", () => {
  it("VOID marks the key voided, so the next pay makes a new key", async () => {
    const api = fakeApi([resolved("VOID"), succeeded()]);
    await api.journal.put(entry());
    const client = createPaymentsClient(api.options);
    const outcome = await client.resolve("42");
    await client.pay(order42());
    expect(outcome).toMatchObject({ kind: "voided", next: "pay", key: entry().key });
    expect(api.calls[0]).toMatchObject({ path: "/payments/resolve", key: entry().key });
    expect(api.calls[1]?.key).not.toBe(entry().key);
  });

  it("PROCESSING keeps the key and journals it; a resolve with no journaled key sends nothing", async () => {
    const api = fakeApi([resolved("PROCESSING"), processing(), succeeded()]);
    await api.journal.put(entry());
    const client = createPaymentsClient(api.options);
    const outcome = await client.resolve("42");
    const paid = await client.pay(order42());
    const unknown = await client.resolve("43");
    expect(outcome).toMatchObject({ kind: "processing", payment_id: PAYMENT_ID });
    expect(paid).toMatchObject({ kind: "succeeded", key: entry().key });
    expect(unknown).toMatchObject({ kind: "refused", reason: "no-key", attempts: 0 });
    expect(api.calls).toHaveLength(3);
  });
});

describe("the file journal", () => {
  it("survives a restart, writes atomically and keeps concurrent entries", async () => {
    // prepare
    const dir = await mkdtemp(join(tmpdir(), "eo-journal-"));
    const path = join(dir, "keys.json");
    // act
    await Promise.all([
      fileJournal(path).put(entry()),
      fileJournal(path).put(entry({ order_id: "43", key: "k-43" })),
    ]);
    await fileJournal(path).put(entry({ state: "succeeded", payment_id: PAYMENT_ID }));
    // assess: a new instance (a restarted app) reads both, and no temp file is left behind
    const restarted = fileJournal(path);
    expect(await restarted.get("42")).toMatchObject({ state: "succeeded", payment_id: PAYMENT_ID });
    expect(await restarted.get("43")).toMatchObject({ key: "k-43" });
    expect(await restarted.get("44")).toBeUndefined();
    expect(await readdir(dir)).toEqual(["keys.json"]);
    expect(JSON.parse(await readFile(path, "utf8")).version).toBe(1);
  });

  it("refuses to pay over an unreadable journal rather than read it as empty: nothing sent", async () => {
    const dir = await mkdtemp(join(tmpdir(), "eo-journal-"));
    const path = join(dir, "keys.json");
    await writeFile(path, "{ half a journ");
    const api = fakeApi([succeeded()], { journal: fileJournal(path) });
    const result = await createPaymentsClient(api.options).pay(order42());
    expect(result).toMatchObject({ kind: "refused", reason: "journal-unavailable", attempts: 0 });
    expect(api.calls).toHaveLength(0);
  });
});
