import { SqsEventPublisher } from "@eo/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { LedgerPort, MoveResult } from "../../packages/core/src/ledger/ledger-port";
import { paymentDeps } from "../../packages/core/src/payment/payment-wiring";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { eventually } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

afterEach(() => {
  vi.restoreAllMocks();
});

/**
 * Holds each resolver pass at its read of the UNKNOWN rows until the other pass has read them too, so that both
 * passes work on the same payments at once; `overlapped` says whether that happened within `waitMs`.
 */
function holdUntilBothListed(ledger: LedgerPort, waitMs = 5_000) {
  const seen = { overlapped: false };
  let held = 0;
  let release!: () => void;
  const both = new Promise<void>((r) => (release = r));
  const real = ledger.listByState.bind(ledger);
  vi.spyOn(ledger, "listByState").mockImplementation(async (state, beforeMs, limit) => {
    if (state !== "UNKNOWN" || seen.overlapped) return real(state, beforeMs, limit);
    if (held > 0) {
      // The other pass is still inside its read: the two passes run at the same time.
      seen.overlapped = true;
      release();
    } else {
      held += 1;
      await Promise.race([both, new Promise((r) => setTimeout(r, waitMs))]);
      held -= 1;
    }
    return real(state, beforeMs, limit);
  });
  return seen;
}

/** Counts the compare-and-set moves into SUCCEEDED that took effect, per payment. */
function countSettlements(ledger: LedgerPort): Map<string, number> {
  const settled = new Map<string, number>();
  const real = ledger.move.bind(ledger);
  vi.spyOn(ledger, "move").mockImplementation(async (m): Promise<MoveResult> => {
    const result = await real(m);
    if (result.moved && m.to === "SUCCEEDED") settled.set(m.paymentId, (settled.get(m.paymentId) ?? 0) + 1);
    return result;
  });
  return settled;
}

describe("two resolver passes at once (EventBridge may overlap a scheduled job; the local scheduler does too)", () => {
  it("over the same unknown payments: one charge each at the PSP, each settled once, one outbox event each", async () => {
    // prepare: three payments whose replies were lost, and no webhook to settle them before the resolver does
    stack().psp.setWebhookUrl(undefined);
    const merchant = `m-overlap-${newKey()}`;
    const token = await api().token("u-overlap");
    await api().local("POST", "/faults", { psp_lose_reply: 3 });
    const paid = await Promise.all(
      [1, 2, 3].map(() => api().pay(token, newKey(), order42({ merchant_id: merchant }))),
    );
    await api().local("DELETE", "/faults");
    const ids = paid.map((p) => String(p.body.payment_id));
    const gate = holdUntilBothListed(paymentDeps().ledger);
    const settlements = countSettlements(paymentDeps().ledger);
    const publish = vi.spyOn(SqsEventPublisher.prototype, "publish");
    // act: two passes through the scheduler at the same time
    const runs = await Promise.all([
      api().local("POST", "/run/resolver"),
      api().local("POST", "/run/resolver"),
    ]);
    const merchantAfter = await eventually(
      async () => {
        const m = await api().local("GET", `/merchants/${merchant}`);
        // The balance shards and the credit records are read one after the other, so wait for both to show
        // the third credit (a double credit would never read 3 and 9000 and fails the wait).
        return m.body.credits === 3 && m.body.balance === 9000 ? m.body : undefined;
      },
      15_000,
      "three credits",
    );
    // assess
    expect(paid.map((p) => p.status)).toEqual([202, 202, 202]);
    expect(runs.map((r) => r.status)).toEqual([200, 200]);
    expect(gate.overlapped).toBe(true);
    for (const id of ids) {
      expect(
        stack()
          .psp.charges()
          .filter((c) => c.reference === id),
      ).toHaveLength(1);
      expect(settlements.get(id)).toBe(1);
      expect(publish.mock.calls.filter(([e]) => e.event_id === `${id}:SUCCEEDED`)).toHaveLength(1);
    }
    expect(merchantAfter).toMatchObject({ credits: 3, balance: 9000 });
  }, 60_000);
});
