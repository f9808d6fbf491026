import type { ChargeLookup, ChargeParams, PspOrigin, PspPort, PspReply } from "./psp-port";
import { classifyCharge, classifyRefund, retryAfterMsOf } from "./psp-replies";

type PspUnknown = { kind: "unknown"; reason: string };
type PspNotRun = Extract<PspReply, { kind: "rate-limited" }>;
type HttpAnswer = { kind: "http"; status: number; body: unknown; replayed: boolean; retryAfterMs: number };
type Listed = { id: string; status?: string; decline_code?: string; refunded?: boolean };

/** The most pages one lookup reads; a reference names one payment, so more means something is wrong. */
const MAX_PAGES = 20;

/** The PSP over HTTP (Stripe-like): JSON bodies, Idempotency-Key, bearer secret key. */
export class HttpPsp implements PspPort {
  // Its lookup lists by reference from an index that may lag behind the charge (the `psp_search_lag` fault).
  readonly lookupConsistent = false;

  constructor(
    private readonly baseUrl: string,
    /** The key, or where to read it on each call (a function without the PSP secret fails only if it calls the PSP). */
    private readonly apiKey: string | (() => string),
  ) {}

  async charge(key: string, params: ChargeParams, timeoutMs: number, origin?: PspOrigin): Promise<PspReply> {
    const res = await this.post("/v1/charges", key, params, timeoutMs, origin);
    if (res.kind === "unknown") return res;
    return classifyCharge(res.status, res.body, res.replayed, res.retryAfterMs);
  }

  async refund(
    key: string,
    charge: string,
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
  ): Promise<PspReply> {
    const res = await this.post("/v1/refunds", key, { charge, reference }, timeoutMs, origin);
    if (res.kind === "unknown") return res;
    return classifyRefund(res.status, res.body, res.replayed, res.retryAfterMs);
  }

  // No window is needed: the generic dialect looks a charge up by reference directly, at any age, in one request
  // (a page or two) that takes the gate's slot once.
  async findCharge(
    reference: string,
    timeoutMs: number,
    origin?: PspOrigin,
    lookup?: ChargeLookup,
  ): Promise<PspReply> {
    const start = Date.now();
    const refused = await lookup?.gate?.("list");
    if (refused) return refused;
    lookup?.progress?.(undefined);
    const path = `/v1/charges?reference=${encodeURIComponent(reference)}`;
    const listed = await this.listAll(path, timeoutMs - (Date.now() - start), origin);
    if (!Array.isArray(listed)) return listed;
    const ok = listed.find((c) => c.status === "succeeded");
    // A refund made since (by the other Region before it failed, or at the PSP directly) shows on the charge.
    if (ok) return { kind: "done", id: ok.id, ...(ok.refunded === true ? { refunded: true as const } : {}) };
    const failed = listed[0];
    if (failed)
      return { kind: "declined", declineCode: failed.decline_code ?? "card_declined", id: failed.id };
    return { kind: "not-found" };
  }

  // The generic PSP answers a charge final at once; a read by id is there for the port (a charge it had not finished).
  async readCharge(id: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply> {
    const url = `${this.baseUrl}/v1/charges/${encodeURIComponent(id)}`;
    const res = await this.call(url, { headers: this.headers(origin) }, timeoutMs);
    if (res.kind === "unknown") return res;
    if (res.status === 429) return { kind: "rate-limited", retryAfterMs: res.retryAfterMs, by: "psp" };
    if (res.status === 404) return { kind: "not-found" };
    if (res.status !== 200) return { kind: "unknown", reason: `read of ${id} answered ${res.status}` };
    const c = res.body as Listed;
    if (c.status === "succeeded")
      return { kind: "done", id: c.id, ...(c.refunded === true ? { refunded: true as const } : {}) };
    if (c.status === "failed")
      return { kind: "declined", declineCode: c.decline_code ?? "card_declined", id: c.id };
    return { kind: "unknown", reason: `the charge ${id} is ${c.status}`, id: c.id };
  }

  async findRefund(charge: string, timeoutMs: number, origin?: PspOrigin): Promise<PspReply> {
    const listed = await this.listAll(`/v1/refunds?charge=${encodeURIComponent(charge)}`, timeoutMs, origin);
    if (!Array.isArray(listed)) return listed;
    const ok = listed.find((r) => r.status === undefined || r.status === "succeeded");
    return ok ? { kind: "done", id: ok.id } : { kind: "not-found" };
  }

  // The generic PSP has no read of a refund by id: its charge's refunds are listed and the one named is read there.
  async readRefund(
    refundId: string,
    timeoutMs: number,
    origin?: PspOrigin,
    charge?: string,
  ): Promise<PspReply> {
    const query = charge ? `charge=${encodeURIComponent(charge)}` : "";
    const listed = await this.listAll(`/v1/refunds?${query}`, timeoutMs, origin);
    if (!Array.isArray(listed)) return listed;
    const refund = listed.find((r) => r.id === refundId);
    if (!refund) return { kind: "not-found" };
    if (refund.status === undefined || refund.status === "succeeded") return { kind: "done", id: refund.id };
    if (refund.status === "failed" || refund.status === "canceled")
      return { kind: "refund-failed", id: refund.id, reason: refund.status };
    return { kind: "refund-pending", id: refund.id };
  }

  // Reads every page (`has_more`, `starting_after`) within one time budget: a match on a later page
  // must not read as "not found".
  private async listAll(
    path: string,
    timeoutMs: number,
    origin?: PspOrigin,
  ): Promise<Listed[] | PspUnknown | PspNotRun> {
    const until = Date.now() + timeoutMs;
    const all: Listed[] = [];
    for (let page = 0, after = ""; page < MAX_PAGES; page++) {
      const url = `${this.baseUrl}${path}&limit=100${after ? `&starting_after=${encodeURIComponent(after)}` : ""}`;
      const res = await this.call(url, { headers: this.headers(origin) }, until - Date.now());
      if (res.kind === "unknown") return res;
      if (res.status === 429) return { kind: "rate-limited", retryAfterMs: res.retryAfterMs, by: "psp" };
      if (res.status !== 200) return { kind: "unknown", reason: `lookup answered ${res.status}` };
      const body = res.body as { data?: Listed[]; has_more?: boolean };
      all.push(...(body.data ?? []));
      const last = all[all.length - 1];
      if (!body.has_more || !last) return all;
      after = last.id;
    }
    return { kind: "unknown", reason: `lookup ran past ${MAX_PAGES} pages` };
  }

  private post(path: string, key: string, body: unknown, timeoutMs: number, origin?: PspOrigin) {
    const init = {
      method: "POST",
      body: JSON.stringify(body),
      headers: { ...this.headers(origin), "idempotency-key": key },
    };
    return this.call(`${this.baseUrl}${path}`, init, timeoutMs);
  }

  // The origin rides in the User-Agent, so that the PSP's logs (and the fake PSP's stats) can tell live calls
  // from the resolver's replays when someone asks who used the rate limit.
  private headers(origin: PspOrigin = "live"): Record<string, string> {
    const key = typeof this.apiKey === "function" ? this.apiKey() : this.apiKey;
    return {
      authorization: `Bearer ${key}`,
      "content-type": "application/json",
      "user-agent": `effectively-once (${origin})`,
    };
  }

  private async call(url: string, init: RequestInit, timeoutMs: number): Promise<HttpAnswer | PspUnknown> {
    if (timeoutMs <= 0) return { kind: "unknown" as const, reason: "no time left before the deadline" };
    try {
      // The send moment, for the local fake PSP's rate limiter (packages/psp/src/rate-limiter.ts, sentAtOf): it
      // counts a request when it left us, as a PSP across a network would, not when its shared event loop read it.
      const headers = { ...(init.headers as Record<string, string>), "eo-sent-at": String(Date.now()) };
      const res = await fetch(url, { ...init, headers, signal: AbortSignal.timeout(timeoutMs) });
      const body = await res.json().catch(() => ({}));
      return {
        kind: "http",
        status: res.status,
        body,
        replayed: res.headers.get("idempotent-replayed") === "true",
        retryAfterMs: retryAfterMsOf(res.headers.get("retry-after")),
      };
    } catch (err) {
      return {
        kind: "unknown" as const,
        reason: (err as Error).name === "TimeoutError" ? "timed out" : String(err),
      };
    }
  }
}
