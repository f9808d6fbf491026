import net from "node:net";
import { type FakePsp, startFakePsp } from "@eo/psp";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { call, chargeBody } from "../../../psp/test/http-client";
import { stripeFor } from "../../../psp/test/stripe-harness";
import { installInProcessNet } from "../../src/transport/in-process-net";

describe("loopback networking within one process", () => {
  let undo: () => void;
  let psp: FakePsp | undefined;
  beforeEach(() => {
    undo = installInProcessNet();
  });
  afterEach(async () => {
    await psp?.stop();
    undo();
  });

  it("serves the fake PSP on a virtual port that no socket holds", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec_test" });
    // act
    const viaKernel = await new Promise<string>((resolve) => {
      const s = net.connect(psp?.port ?? 0, "127.0.0.1");
      s.on("connect", () => {
        s.destroy();
        resolve("connected");
      });
      s.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? "error"));
    });
    // assess
    expect(psp.port).toBeGreaterThanOrEqual(41_000);
    expect(viaKernel).toBe("ECONNREFUSED");
  });

  it("answers Node's HTTP client, fetch and Stripe's SDK from the in-process server", async () => {
    // prepare
    psp = await startFakePsp({ webhookSecret: "whsec_test" });
    // act
    const viaHttp = await call(psp.url, "POST", "/v1/charges", { key: "k1", json: chargeBody() });
    const viaFetch = await fetch(`${psp.url}/v1/charges`, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": "k1" },
      body: JSON.stringify(chargeBody()),
    });
    const intent = await stripeFor(psp).paymentIntents.create(
      { amount: 1200, currency: "eur", payment_method: "pm_card_visa", confirm: true },
      { idempotencyKey: "k2" },
    );
    // assess
    expect(viaHttp.status).toBe(200);
    expect(viaFetch.status).toBe(200);
    expect(((await viaFetch.json()) as { id: string }).id).toBe((viaHttp.body as { id: string }).id);
    expect(intent.status).toBe("succeeded");
    expect(psp.charges()).toHaveLength(2);
  });
});
