import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { memoryJournal } from "@eo/client";
import { fileJournal } from "@eo/client/file-journal";
import { describe, expect, it } from "vitest";
import { useLocalStack } from "../support/local-stack";
import { anOrder, charges, phone } from "./support/phone";
import { killedAfterFirstSend, phoneNetwork } from "./support/phone-network";

const stack = useLocalStack();
const api = () => stack().apiUrl;
const journalFile = async () => join(await mkdtemp(join(tmpdir(), "eo-client-")), "keys.json");
// A killed app never wakes up again.
const never = () => new Promise<void>(() => undefined);

describe("an app killed mid-send still has its key (Part 2)", () => {
  it("restarted with the same journal, it reuses the key: one charge", async () => {
    // prepare: the app sends the first request and is killed before the answer arrives
    const path = await journalFile();
    const order = anOrder();
    const before = await charges(api());
    const dying = killedAfterFirstSend(path);
    void phone(api(), { journal: fileJournal(path), fetch: dying.fetch, sleep: never }).pay(order);
    const first = await dying.firstSend;
    // act: the app starts again on the same journal file, and the buyer pays the order again
    const result = await phone(api(), { journal: fileJournal(path) }).pay(order);
    // assess
    expect(first.journaled[order.order_id]).toBe(first.key);
    expect(first.status).toBe(201);
    expect(result).toMatchObject({ kind: "succeeded", key: first.key, replayed: true });
    expect(await charges(api(), before)).toEqual([
      expect.objectContaining({ reference: result.kind === "succeeded" ? result.payment_id : "" }),
    ]);
  });

  it("restarted without its journal, it makes a new key and charges twice: why the key is journaled first", async () => {
    const path = await journalFile();
    const order = anOrder();
    const before = await charges(api());
    const dying = killedAfterFirstSend(path);
    void phone(api(), { journal: fileJournal(path), fetch: dying.fetch, sleep: never }).pay(order);
    await dying.firstSend;
    const result = await phone(api(), { journal: memoryJournal() }).pay(order);
    expect(result).toMatchObject({ kind: "succeeded", replayed: false });
    expect(await charges(api(), before)).toHaveLength(2);
  });
});

describe("resolve, don't just look (Part 4)", () => {
  it("voids the key of a lost request; the late original gets 409 key-voided; a new key charges once", async () => {
    // prepare: the phone's requests are lost on the way; the first one waits in a queue somewhere
    const order = anOrder();
    const before = await charges(api());
    const net = phoneNetwork();
    const journal = memoryJournal();
    const client = phone(api(), { journal, fetch: net.fetch, timeoutMs: 300, horizonMs: 1_000 });
    net.set("requests-lost");
    const gaveUp = await client.pay(order);
    net.set("up");
    // act: did it go through? then the late original leaves its queue; then the buyer taps again
    const resolved = await client.resolve(order.order_id);
    const late = await net.deliver(net.held[0] as (typeof net.held)[number]);
    // The tap again is the same app (same journal) with its usual timeout: the 300 ms above only makes the lost
    // requests give up quickly, and on a busy machine it would make this answer a (replayed) retry.
    const again = await phone(api(), { journal, fetch: net.fetch }).pay(order);
    // assess
    expect(gaveUp).toMatchObject({ kind: "processing", next: "resolve", payment_id: undefined });
    expect(net.held[0]?.key).toBe(gaveUp.key);
    expect(resolved).toMatchObject({ kind: "voided", next: "pay", key: gaveUp.key });
    expect(late.status).toBe(409);
    expect(late.body.type).toMatch(/\/key-voided$/);
    expect(again).toMatchObject({ kind: "succeeded", replayed: false });
    expect(again.key).not.toBe(gaveUp.key);
    const paymentId = again.kind === "succeeded" ? again.payment_id : "";
    expect(await charges(api(), before)).toEqual([expect.objectContaining({ reference: paymentId })]);
    expect(await journal.get(order.order_id)).toMatchObject({
      key: again.key,
      state: "succeeded",
      payment_id: paymentId,
    });
  });

  it("keeps the key of a request that went through with its reply lost: the next pay replays the answer", async () => {
    const order = anOrder();
    const before = await charges(api());
    const net = phoneNetwork();
    const client = phone(api(), { fetch: net.fetch, timeoutMs: 1_000, horizonMs: 1_500 });
    net.set("replies-lost");
    const gaveUp = await client.pay(order);
    net.set("up");
    const resolved = await client.resolve(order.order_id);
    const again = await client.pay(order);
    expect(gaveUp).toMatchObject({ kind: "processing", next: "resolve" });
    expect(resolved).toMatchObject({ kind: "succeeded", key: gaveUp.key });
    expect(again).toMatchObject({ kind: "succeeded", key: gaveUp.key, replayed: true });
    expect(await charges(api(), before)).toHaveLength(1);
  });
});
