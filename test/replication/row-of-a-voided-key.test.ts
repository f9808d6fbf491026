import { randomUUID } from "node:crypto";
import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { ApiClient } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";

const order = {
  order_id: "o0",
  amount: 3000,
  currency: "USD",
  payment_method: "pm_1",
  merchant_id: "m-voided",
};

afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_REPLAY_VOIDED_KEY;
});

describe("the row of a key voided in the other Region (Part 9, found by the fault checker)", () => {
  const stack = useLocalStack({ standby: false });

  /**
   * What the two-Region schedule left: the failed Region's PENDING row (its owner died after the durable guard,
   * before the PSP) arrives beside the tombstone this Region wrote when resolve found no trace of the key and the
   * PSP no charge (last writer wins per item: the locator is VOID, the row stands). Then the resolver runs.
   */
  async function resolverOnAVoidedKeysRow() {
    const api = new ApiClient(stack().apiUrl);
    const caller = `vk-${randomUUID().slice(0, 8)}`;
    const token = await api.token(caller);
    const key = randomUUID();
    const paymentId = paymentIdOf(caller, key);
    await api.pay(token, randomUUID(), { ...order, order_id: "warm-up" });
    await api.local("POST", "/faults", { crash_at: "pay.after_guard", n: 1 });
    const died = await api.pay(token, key, order);
    const t = tablesOf(stack());
    await t.db.send(
      new PutCommand({
        TableName: stack().emulators.regions.primary.ledgerTable,
        Item: {
          pk: `LOC#${encodeURIComponent(caller)}#${key}`,
          sk: "LOCATOR",
          caller,
          client_key: key,
          payment_id: "",
          state: "VOID",
          created_at: Date.now(),
        },
      }),
    );
    for (const advance of [60, 700]) {
      await api.local("POST", "/clock", { advance_s: advance });
      await api.local("POST", "/run/resolver");
    }
    const charges = stack()
      .psp.charges()
      .filter((c) => c.reference === paymentId);
    return { died, charges, row: await t.payment(paymentId) };
  }

  it("the resolver only looks the charge up, never sends it: no charge, and the row ends FAILED", async () => {
    // act
    const { died, charges, row } = await resolverOnAVoidedKeysRow();
    // assess
    expect(died.status).toBe(500);
    expect(charges).toHaveLength(0);
    expect(row?.state).toBe("FAILED");
  }, 60_000);

  it("counterfactual: replaying the voided key's charge charges the order a second time", async () => {
    // prepare
    process.env.EO_TEST_UNSAFE_REPLAY_VOIDED_KEY = "1";
    // act
    const { charges, row } = await resolverOnAVoidedKeysRow();
    // assess
    expect(charges).toHaveLength(1);
    expect(row?.state).toBe("SUCCEEDED");
  }, 60_000);
});
