import { randomUUID } from "node:crypto";
import { mintToken } from "../../packages/local/src/runtime/jwt";

export interface Reply {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

/** A minimal client of the contract's API, as a phone or a test would use it. */
export class ApiClient {
  constructor(readonly baseUrl: string) {}

  async token(sub: string, email?: string): Promise<string> {
    return mintToken(sub, { email });
  }

  async pay(token: string, key: string | undefined, body: unknown, raw?: string): Promise<Reply> {
    const headers: Record<string, string> = {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
    };
    if (key !== undefined) headers["idempotency-key"] = key;
    return this.send("POST", "/payments", headers, raw ?? JSON.stringify(body));
  }

  /**
   * Pays as a phone does: a 503 (the PSP budget's slot, a deadline passed: nothing ran) is sent again with the same
   * key at its Retry-After, up to 10 times; for traces whose point is not the 503 a loaded machine can answer.
   */
  async payAsPhone(token: string, key: string, body: unknown): Promise<Reply> {
    const ranNothing = (r: Reply) =>
      r.status === 503 && /psp-unavailable|deadline-passed/.test(String(r.body.type));
    let res = await this.pay(token, key, body);
    for (let tries = 0; tries < 10 && ranNothing(res); tries++) {
      const afterS = Number(res.headers.get("retry-after") ?? 1);
      await new Promise((r) => setTimeout(r, Math.min(Math.max(afterS, 0.2), 5) * 1_000));
      res = await this.pay(token, key, body);
    }
    return res;
  }

  async resolve(token: string, key: string): Promise<Reply> {
    return this.send("POST", "/payments/resolve", {
      authorization: `Bearer ${token}`,
      "idempotency-key": key,
    });
  }

  async get(token: string, paymentId: string): Promise<Reply> {
    return this.send("GET", `/payments/${paymentId}`, { authorization: `Bearer ${token}` });
  }

  async cancel(token: string, paymentId: string): Promise<Reply> {
    return this.send("POST", `/payments/${paymentId}/cancel`, { authorization: `Bearer ${token}` });
  }

  async local(method: string, path: string, body?: unknown): Promise<Reply> {
    return this.send(
      method,
      `/_local${path}`,
      { "content-type": "application/json" },
      body === undefined ? undefined : JSON.stringify(body),
    );
  }

  async send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Reply> {
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body });
    const text = await res.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      parsed = { raw: text };
    }
    return { status: res.status, headers: res.headers, body: parsed };
  }
}

/** A fresh client key, as the app makes one at the tap. */
export const newKey = (): string => `k-${randomUUID()}`;

/** The contract's example payment. */
export const order42 = (over: Record<string, unknown> = {}) => ({
  order_id: "42",
  amount: 3000,
  currency: "USD",
  payment_method: "pm_1",
  merchant_id: "m1",
  ...over,
});
