import { PutCommand } from "@aws-sdk/lib-dynamodb";
import { afterEach, describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { paymentIdOf } from "../../packages/core/src/ids/derive-ids";
import { journalAndOutbox } from "../../packages/core/src/ledger/journal-and-outbox";
import type { PaymentRow } from "../../packages/core/src/ledger/ledger-items";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { tablesOf } from "../support/ledger-reads";
import { useLocalStack } from "../support/local-stack";
import { makeActive } from "../support/regions";
import { asyncQuiet, eventually, snapshotTables } from "../support/tables";

// One Region is active at a time (Part 9's home-Region rule). Here the local primary plays a Region
// that is passive (the Region control names the standby), then is promoted: data, never a redeploy.
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

afterEach(async () => {
  await makeActive(stack(), "primary");
});

describe("a passive standby Region", () => {
  it("refuses writes with 503 and writes nothing, but still serves reads", async () => {
    // prepare
    const token = await api().token("u1");
    const paid = await api().pay(token, newKey(), order42());
    await asyncQuiet(stack());
    await makeActive(stack(), "standby");
    const before = await snapshotTables(stack());
    // act
    const write = await api().pay(token, newKey(), order42());
    const resolve = await api().resolve(token, newKey());
    const read = await api().get(token, String(paid.body.payment_id));
    // assess
    expect(write.status).toBe(503);
    expect(String(write.body.type)).toMatch(/region-passive$/);
    expect(resolve.status).toBe(503);
    expect(read.status).toBe(200);
    expect(await snapshotTables(stack())).toEqual(before);
  });

  it("relays nothing while passive; once promoted, its sweep re-sends the outbox with the same event id: one credit", async () => {
    // prepare: the outbox item arrives by replication from a primary that failed before relaying it
    await makeActive(stack(), "standby");
    const merchant = `m-${newKey()}`;
    const row = succeededRow(merchant);
    const t = tablesOf(stack());
    for (const put of journalAndOutbox(stack().emulators.regions.primary.ledgerTable, row, clock.now())) {
      await t.db.send(new PutCommand(put));
    }
    const run = await api().local("POST", "/run/resolver");
    await new Promise((r) => setTimeout(r, 1_000));
    const whilePassive = await api().local("GET", `/merchants/${merchant}`);
    // act: promotion
    await makeActive(stack(), "primary");
    await api().local("POST", "/clock", { advance_s: 600 });
    const sweep = await api().local("POST", "/run/sweeps");
    const credited = await eventually(
      async () => {
        const m = await api().local("GET", `/merchants/${merchant}`);
        return m.body.credits === 1 ? m.body : undefined;
      },
      15_000,
      "the credit after promotion",
    );
    // assess
    expect(run.body.result).toEqual({ passive: true });
    expect(whilePassive.body.credits ?? 0).toBe(0);
    expect(sweep.body.result).toMatchObject({ outbox: { resent: 1 } });
    expect(credited).toMatchObject({ credits: 1, balance: 3000 });
  });
});

function succeededRow(merchant: string): PaymentRow {
  const key = newKey();
  const now = clock.now();
  return {
    payment_id: paymentIdOf("u1", key),
    caller: "u1",
    client_key: key,
    fingerprint: "fp",
    order_id: "42",
    amount: 3000,
    currency: "USD",
    payment_method: "pm_1",
    merchant_id: merchant,
    state: "SUCCEEDED",
    psp_charge: "ch_replicated",
    created_at: now,
    updated_at: now,
  };
}
