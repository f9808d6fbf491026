import { randomUUID } from "node:crypto";
import { mintToken } from "../runtime/jwt";
import type { LocalStack } from "../stack/start-stack";

/** What a drill's phone and observer call: the two Regions' APIs and their `/_local` routes. */
export class DrillApi {
  constructor(readonly urls: { R1: string; R2: string }) {}

  /** A caller's token with an email claim, as the buyer's app holds it. */
  token(caller: string): Promise<string> {
    return mintToken(caller, { email: `${caller}@example.com` });
  }

  /** `POST /payments` with the phone's key. */
  pay(region: "R1" | "R2", token: string, key: string, body: Record<string, unknown>) {
    return this.send(
      region,
      "POST",
      "/payments",
      { authorization: `Bearer ${token}`, "idempotency-key": key },
      body,
    );
  }

  get(region: "R1" | "R2", token: string, paymentId: string) {
    return this.send(region, "GET", `/payments/${paymentId}`, { authorization: `Bearer ${token}` });
  }

  /** `POST /payments/resolve`: the app's "did it go through?" for a key. */
  resolve(region: "R1" | "R2", token: string, key: string) {
    return this.send(region, "POST", "/payments/resolve", {
      authorization: `Bearer ${token}`,
      "idempotency-key": key,
    });
  }

  local(region: "R1" | "R2", method: string, path: string, body?: unknown) {
    return this.send(region, method, `/_local${path}`, {}, body);
  }

  async send(
    region: "R1" | "R2",
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) {
    const res = await fetch(`${this.urls[region]}${path}`, {
      method,
      headers: { "content-type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: (text ? JSON.parse(text) : {}) as Record<string, unknown>,
    };
  }
}

/** Polls until `check` answers something, or throws naming what did not happen. */
export async function until<T>(
  what: string,
  check: () => Promise<T | undefined>,
  timeoutMs = 20_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`the drill waited ${timeoutMs} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The replication lag in seconds, as the timeline says it. */
export function lagOf(stack: LocalStack): string {
  return ((stack.replicator?.status().lag_ms ?? 0) / 1000).toFixed(1);
}

/** A drill's buyer (with a phone registered in R1) and merchant, fresh for each run. */
export async function drillParties(
  api: DrillApi,
): Promise<{ caller: string; token: string; merchant: string }> {
  const caller = `buyer-${randomUUID().slice(0, 8)}`;
  const merchant = `m1-${randomUUID().slice(0, 6)}`;
  const token = await api.token(caller);
  const device = { platform: "apns", token: `tok-${randomUUID()}` };
  await api.send("R1", "POST", "/devices", { authorization: `Bearer ${token}` }, device);
  return { caller, token, merchant };
}
