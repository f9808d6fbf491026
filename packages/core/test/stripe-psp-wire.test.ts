import http from "node:http";
import Stripe from "stripe";
import { afterEach, describe, expect, it } from "vitest";
import { StripePsp } from "../src/psp/stripe-psp";

let server: http.Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

// A PSP that reads each request and then closes the connection without a word: the reply lost after the run.
async function closingPsp(): Promise<{ port: number; hits: () => number }> {
  let hits = 0;
  server = http.createServer((req) => {
    hits += 1;
    req.resume();
    req.on("end", () => req.socket.destroy());
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, hits: () => hits };
}

// A PSP that answers every request with a succeeded PaymentIntent and keeps what it was sent.
async function recordingPsp(): Promise<{
  port: number;
  seen: Array<{ headers: http.IncomingHttpHeaders; body: string }>;
}> {
  const seen: Array<{ headers: http.IncomingHttpHeaders; body: string }> = [];
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      seen.push({ headers: req.headers, body });
      res.writeHead(200, { "content-type": "application/json", "request-id": "req_1" });
      res.end(JSON.stringify({ id: "pi_1", object: "payment_intent", status: "succeeded", metadata: {} }));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port, seen };
}

describe("what a charge puts on the wire", () => {
  it("the pinned API version, our derived key, the origin, and a confirmed card intent naming our payment", async () => {
    // prepare
    const psp = await recordingPsp();
    const stripe = new StripePsp(() => "sk_test_read_on_use", {
      host: "127.0.0.1",
      port: psp.port,
      protocol: "http",
    });
    const params = { amount: 3000, currency: "USD", payment_method: "pm_card_visa", reference: "pay_1" };
    // act
    const reply = await stripe.charge("pay_1:charge", params, 5_000, "resolver");
    // assess
    const [req] = psp.seen;
    const form = new URLSearchParams(req?.body);
    expect(reply).toEqual({ kind: "done", id: "pi_1" });
    expect(req?.headers).toMatchObject({
      "stripe-version": "2026-11-18.endive",
      "idempotency-key": "pay_1:charge",
      authorization: "Bearer sk_test_read_on_use",
      "content-type": "application/x-www-form-urlencoded",
    });
    expect(req?.headers["user-agent"]).toContain("(resolver)");
    expect(Object.fromEntries(form)).toMatchObject({
      amount: "3000",
      currency: "usd",
      payment_method: "pm_card_visa",
      confirm: "true",
      "metadata[payment_id]": "pay_1",
      "automatic_payment_methods[allow_redirects]": "never",
    });
  });
});

describe("lost PSP reply (Part 2): the SDK must not send it again on its own", () => {
  it("stripe-node retries a closed connection once even with maxNetworkRetries: 0 (why the adapter wraps it)", async () => {
    // prepare
    const psp = await closingPsp();
    const sdk = new Stripe("sk_test", {
      host: "127.0.0.1",
      port: psp.port,
      protocol: "http",
      maxNetworkRetries: 0,
    });
    // act
    const failed = await sdk.paymentIntents
      .create({ amount: 1, currency: "usd" })
      .catch((err: unknown) => err);
    // assess
    expect(failed).toBeInstanceOf(Stripe.errors.StripeConnectionError);
    expect(psp.hits()).toBe(2);
  });

  it("StripePsp sends the charge once and answers unknown: the resolver, not the SDK, sends it again", async () => {
    // prepare
    const psp = await closingPsp();
    const stripe = new StripePsp("sk_test", { host: "127.0.0.1", port: psp.port, protocol: "http" });
    const params = { amount: 3000, currency: "USD", payment_method: "pm_card_visa", reference: "pay_1" };
    // act
    const reply = await stripe.charge("pay_1:charge", params, 5_000);
    // assess
    expect(reply.kind).toBe("unknown");
    expect(psp.hits()).toBe(1);
  });
});

// A PSP that answers at once but sends its body a byte at a time, never finishing: the socket is never idle.
async function tricklingPsp(): Promise<{ port: number }> {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/json" });
    const drip = setInterval(() => res.write(" "), 50);
    res.on("close", () => clearInterval(drip));
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return { port: (server.address() as { port: number }).port };
}

describe("the deadline (Part 4): the SDK's timeout is an idle timeout, ours bounds the whole call", () => {
  it("a reply trickling past the time handed over answers unknown at that time", async () => {
    // prepare
    const psp = await tricklingPsp();
    const stripe = new StripePsp("sk_test", { host: "127.0.0.1", port: psp.port, protocol: "http" });
    const params = { amount: 3000, currency: "USD", payment_method: "pm_card_visa", reference: "pay_1" };
    // act
    const started = Date.now();
    const reply = await stripe.charge("pay_1:charge", params, 300);
    const tookMs = Date.now() - started;
    // assess
    expect(reply).toEqual({ kind: "unknown", reason: "timed out" });
    expect(tookMs).toBeLessThan(600);
  });
});
