import { describe, expect, it } from "vitest";
import { checkInvariants, type Observed } from "../../scripts/lib/load/invariants";
import type { PhoneRecord } from "../../scripts/lib/load/phone";

const phone = (n: number, outcome: PhoneRecord["outcome"] = "succeeded"): PhoneRecord => ({
  caller: `c${n}`,
  order: {
    order_id: `o${n}`,
    amount: 100,
    currency: "USD",
    payment_method: "pm_card_visa",
    merchant_id: "m1",
  },
  intendedAt: 0,
  payment_id: `pay_${n}`,
  payment_ids: new Set([`pay_${n}`]),
  outcome,
  attempts: 1,
  statuses: ["201"],
});

/** Two buyers, each charged, credited and notified once: the state every check must accept. */
function clean(): Observed {
  return {
    phones: [phone(1), phone(2)],
    charges: [1, 2].map((n) => ({
      id: `ch_${n}`,
      reference: `pay_${n}`,
      amount: 100,
      currency: "USD",
      refunded: false,
    })),
    rows: new Map(
      [1, 2].map((n) => [
        `pay_${n}`,
        { state: "SUCCEEDED", psp_charge: `ch_${n}`, amount: 100, merchant_id: "m1" },
      ]),
    ),
    merchants: new Map([["m1", { balance: 200, credits: 2 }]]),
    screens: new Map([1, 2].map((n) => [`c${n}`, { shown: new Set([`pay_${n}`]), alerts: 1 }])),
    backlog: 0,
  };
}

const broken = (o: Observed) =>
  checkInvariants(o)
    .filter((i) => !i.ok)
    .map((i) => i.name);

describe("the load run's independent check", () => {
  it("accepts a run where every payment was charged, credited and notified once", () => {
    expect(broken(clean())).toEqual([]);
  });

  it("finds a second charge for one order, even under another payment id no phone kept", () => {
    // prepare: the phone made a new key on its retry, so the PSP charged twice for order o1
    const o = clean();
    o.phones[0]?.payment_ids.add("pay_1b");
    o.charges.push({ id: "ch_1b", reference: "pay_1b", amount: 100, currency: "USD", refunded: false });
    o.rows.set("pay_1b", { state: "SUCCEEDED", psp_charge: "ch_1b", amount: 100, merchant_id: "m1" });
    // assess
    expect(broken(o)).toContain("at most one charge per (caller, key)");
  });

  it("finds a charge with no ledger row (a lost payment)", () => {
    const o = clean();
    o.charges.push({ id: "ch_9", reference: "pay_9", amount: 100, currency: "USD", refunded: false });
    expect(broken(o)).toContain("every charge has a SUCCEEDED ledger row");
  });

  it("finds a credit counted twice and a notification missing", () => {
    const o = clean();
    o.merchants.set("m1", { balance: 300, credits: 3 });
    o.screens.set("c2", { shown: new Set(), alerts: 0 });
    expect(broken(o)).toEqual(["every SUCCEEDED payment credited once", "every SUCCEEDED payment notified"]);
  });

  it("finds a payment left unknown and a buyer told 201 for a payment the ledger failed", () => {
    const o = clean();
    o.rows.set("pay_2", { state: "FAILED", amount: 100, merchant_id: "m1" });
    o.charges.pop();
    o.merchants.set("m1", { balance: 100, credits: 1 });
    o.backlog = 1;
    expect(broken(o)).toEqual(["no payment left unknown; answers agree with the ledger"]);
  });
});
