import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhookSignature } from "../src/index";

const SECRET = "whsec_test";
const BODY = JSON.stringify({ id: "evt_1", type: "charge.succeeded" });
const NOW_MS = Date.UTC(2025, 0, 1);
const NOW_S = NOW_MS / 1000;

describe("webhook signatures", () => {
  it("accept a body signed with the secret at the current time", () => {
    const header = signWebhook(SECRET, BODY, NOW_S);

    const check = verifyWebhookSignature(SECRET, BODY, header, NOW_MS);

    expect(header).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(check).toEqual({ ok: true });
  });

  it("reject a tampered body", () => {
    const header = signWebhook(SECRET, BODY, NOW_S);

    const check = verifyWebhookSignature(SECRET, BODY.replace("evt_1", "evt_2"), header, NOW_MS);

    expect(check).toEqual({ ok: false, reason: expect.stringContaining("mismatch") });
  });

  it("reject a signature made with another secret", () => {
    const header = signWebhook("whsec_other", BODY, NOW_S);

    const check = verifyWebhookSignature(SECRET, BODY, header, NOW_MS);

    expect(check).toEqual({ ok: false, reason: expect.stringContaining("mismatch") });
  });

  it.each([-301, 301])("reject a timestamp %i s away from now", (offsetS) => {
    const header = signWebhook(SECRET, BODY, NOW_S + offsetS);

    const check = verifyWebhookSignature(SECRET, BODY, header, NOW_MS);

    expect(check).toEqual({ ok: false, reason: expect.stringContaining("tolerance") });
  });

  it("accept a timestamp exactly 300 s old", () => {
    const header = signWebhook(SECRET, BODY, NOW_S - 300);

    expect(verifyWebhookSignature(SECRET, BODY, header, NOW_MS)).toEqual({ ok: true });
  });

  it.each([
    ["a missing header", undefined],
    ["a header without a timestamp", "v1=abc"],
    ["a header without a signature", `t=${NOW_S}`],
  ])("reject %s with a reason", (_, header) => {
    const check = verifyWebhookSignature(SECRET, BODY, header, NOW_MS);

    expect(check.ok).toBe(false);
    expect(check.ok ? "" : check.reason).not.toBe("");
  });
});
