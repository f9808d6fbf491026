import { armFault, clearFaults } from "@eo/core";
import { afterEach, describe, expect, it, vi } from "vitest";
import { type FakePsp, startFakePsp } from "../src/index";
import { type ChargeJson, call, chargeBody } from "./http-client";

let psp: FakePsp | undefined;

afterEach(async () => {
  clearFaults();
  await psp?.stop();
  psp = undefined;
});

describe("injected faults", () => {
  it("a lost reply still charges, and the repeat with the same key replays that one charge", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_lose_reply", 1, 1);

    const lost = call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await expect(lost).rejects.toThrow();
    const charged = psp.charges();
    const repeat = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });

    expect(charged).toHaveLength(1);
    expect(repeat.status).toBe(200);
    expect(repeat.headers["idempotent-replayed"]).toBe("true");
    expect(repeat.body.id).toBe(charged[0]?.id);
    expect(psp.charges()).toHaveLength(1);
  });

  it("a delayed request charges after the delay even though the client gave up", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_delay_ms", 150, 1);

    const abandoned = call(psp.url, "POST", "/v1/charges", {
      key: "k1",
      json: chargeBody(),
      abortAfterMs: 20,
    });
    await expect(abandoned).rejects.toThrow("client gave up");
    const chargedWhenClientLeft = psp.charges().length;

    await vi.waitFor(() => expect(psp?.charges()).toHaveLength(1), { timeout: 2000, interval: 20 });
    expect(chargedWhenClientLeft).toBe(0);
  });

  it("counts a request held in its delay in the stats' held gauge until it has charged", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_delay_ms", 150, 1);
    // act
    const slow = call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await vi.waitFor(() => expect(psp?.stats().held).toBe(1), { timeout: 1000, interval: 5 });
    const chargesWhileHeld = psp.charges().length;
    await slow;
    // assess
    expect(chargesWhileHeld).toBe(0);
    expect(psp.stats().held).toBe(0);
    expect(psp.charges()).toHaveLength(1);
  });

  it("a retry during the delay gets the one charge that the delayed request then replays", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_delay_ms", 150, 1);

    const slow = call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await new Promise((resolve) => setTimeout(resolve, 30));
    const retry = await call<ChargeJson>(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    const late = await slow;

    expect(retry.status).toBe(200);
    expect(late.headers["idempotent-replayed"]).toBe("true");
    expect(late.body.id).toBe(retry.body.id);
    expect(psp.charges()).toHaveLength(1);
  });

  it("stop() abandons a delayed request without charging and leaves no timer behind", async () => {
    psp = await startFakePsp({ webhookSecret: "s" });
    armFault("psp_delay_ms", 10_000, 1);
    const pending = call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    await vi.waitFor(() => expect(psp?.requests()).toBe(1));

    await psp.stop();

    await expect(pending).rejects.toThrow();
    expect(psp.charges()).toEqual([]);
  });
});
