import { describe, expect, it } from "vitest";
import type { PaymentRow } from "../../packages/core/src/ledger/ledger-items";
import type { LedgerPort } from "../../packages/core/src/ledger/ledger-port";
import { inheritedAcrossFailover } from "../../packages/core/src/payment/settle-unknowns";
import { activeRegion } from "../../packages/core/src/region/active-region";
import { fencedLedger } from "../../packages/core/src/region/fenced-ledger";
import { control, controlStore } from "./support/memory-control";

// The rule that a row guarded under an earlier Region epoch is only looked up by the resolver needs two facts to be
// right: the epoch the guard was written under, and today's epoch. The store here is the port's in-memory stand-in:
// what is tested is the cache in front of it (the DynamoDB copy is read in test/regions/void-lost-with-its-region).

describe("rows that crossed a failover (Part 9)", () => {
  it("a durable guard carries the epoch of the control it was fenced by", async () => {
    // prepare
    const store = controlStore(control("primary", 3));
    const written: PaymentRow[] = [];
    const ledger = { insertPending: async (row: PaymentRow) => written.push(row) } as unknown as LedgerPort;
    const fenced = fencedLedger(
      ledger,
      activeRegion("primary", store, () => 0, { controlCacheMs: 2_000, fenceCacheMs: 250 }),
    );
    const row = { payment_id: "pay_1", state: "PENDING" } as PaymentRow;
    // act
    await fenced.insertPending(row);
    // assess: the caller's own row carries it, since the pay path moves that object on
    expect(written[0]?.epoch).toBe(3);
    expect(row.epoch).toBe(3);
  });

  it("a VOID tombstone carries the epoch of the control it was fenced by", async () => {
    // prepare
    const store = controlStore(control("standby", 4));
    const calls: unknown[][] = [];
    const ledger = {
      insertVoid: async (...args: unknown[]) => calls.push(args) && { inserted: true },
    } as unknown as LedgerPort;
    const fenced = fencedLedger(
      ledger,
      activeRegion("standby", store, () => 0, { controlCacheMs: 2_000, fenceCacheMs: 250 }),
    );
    // act
    await fenced.insertVoid("c1", "k0", 5);
    // assess
    expect(calls).toEqual([["c1", "k0", 5, 4]]);
  });

  it("the resolver reads today's epoch, not the view the handlers cached before the failover", async () => {
    // prepare: a handler read epoch 1 a moment ago; then two forced failovers came back to this Region
    let now = 10_000;
    const store = controlStore(control("primary", 1));
    const gate = activeRegion("primary", store, () => now, { controlCacheMs: 2_000, fenceCacheMs: 250 });
    await gate.assertActive();
    store.set(control("primary", 3));
    now += 1_000;
    // act
    const cached = await gate.control();
    const today = await gate.controlNow();
    // assess
    expect(cached?.epoch).toBe(1);
    expect(today?.epoch).toBe(3);
  });

  it("a row of an earlier epoch is inherited; one of today's, or of the first epoch before any failover, is not", () => {
    // prepare
    const row = (epoch?: number) => ({ payment_id: "pay_1", epoch }) as PaymentRow;
    // act / assess
    expect(inheritedAcrossFailover(row(1), 3)).toBe(true);
    expect(inheritedAcrossFailover(row(undefined), 2)).toBe(true);
    expect(inheritedAcrossFailover(row(3), 3)).toBe(false);
    expect(inheritedAcrossFailover(row(undefined), 1)).toBe(false);
    expect(inheritedAcrossFailover(row(1), undefined)).toBe(false);
  });
});
