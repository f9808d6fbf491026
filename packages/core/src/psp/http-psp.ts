import type { ChargeParams, PspPort, PspReply } from "./psp-port";

type PspUnknown = { kind: "unknown"; reason: string };
type HttpAnswer = { kind: "http"; status: number; body: unknown; replayed: boolean };

/** The PSP over HTTP (Stripe-like): JSON bodies, Idempotency-Key, bearer secret key. */
export class HttpPsp implements PspPort {
  constructor(
    private readonly baseUrl: string,
    private readonly apiKey: string,
  ) {}

  charge(key: string, params: ChargeParams, timeoutMs: number): Promise<PspReply> {
    return this.post("/v1/charges", key, params, timeoutMs);
  }

  refund(key: string, charge: string, reference: string, timeoutMs: number): Promise<PspReply> {
    return this.post("/v1/refunds", key, { charge, reference }, timeoutMs);
  }

  async findCharge(reference: string, timeoutMs: number): Promise<PspReply> {
    const url = `${this.baseUrl}/v1/charges?reference=${encodeURIComponent(reference)}`;
    const res = await this.call(url, { headers: this.headers() }, timeoutMs);
    if (res.kind === "unknown") return res;
    if (res.status !== 200) return { kind: "unknown", reason: `lookup answered ${res.status}` };
    const list =
      (res.body as { data?: Array<{ id: string; status: string; decline_code?: string }> }).data ?? [];
    const ok = list.find((c) => c.status === "succeeded");
    if (ok) return { kind: "done", id: ok.id };
    if (list.length > 0) return { kind: "declined", declineCode: "card_declined", id: list[0]?.id };
    return { kind: "declined", declineCode: "no_charge_at_psp" };
  }

  private async post(path: string, key: string, body: unknown, timeoutMs: number): Promise<PspReply> {
    const init = {
      method: "POST",
      body: JSON.stringify(body),
      headers: { ...this.headers(), "idempotency-key": key },
    };
    const res = await this.call(`${this.baseUrl}${path}`, init, timeoutMs);
    if (res.kind === "unknown") return res;
    return classify(res.status, res.body, res.replayed);
  }

  private headers(): Record<string, string> {
    return { authorization: `Bearer ${this.apiKey}`, "content-type": "application/json" };
  }

  private async call(url: string, init: RequestInit, timeoutMs: number): Promise<HttpAnswer | PspUnknown> {
    if (timeoutMs <= 0) return { kind: "unknown" as const, reason: "no time left before the deadline" };
    try {
      const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
      const body = await res.json().catch(() => ({}));
      return {
        kind: "http",
        status: res.status,
        body,
        replayed: res.headers.get("idempotent-replayed") === "true",
      };
    } catch (err) {
      return {
        kind: "unknown" as const,
        reason: (err as Error).name === "TimeoutError" ? "timed out" : String(err),
      };
    }
  }
}

function classify(status: number, body: unknown, replayed: boolean): PspReply {
  const b = body as {
    id?: string;
    error?: { type?: string; decline_code?: string; code?: string; charge?: string };
  };
  if (status >= 200 && status < 300 && b.id) return { kind: "done", id: b.id };
  if (status === 402) {
    return {
      kind: "declined",
      declineCode: b.error?.decline_code ?? b.error?.code ?? "declined",
      id: b.error?.charge,
    };
  }
  if (status >= 500 && replayed) return { kind: "saved-error", status };
  if (status === 404 || status === 400) return { kind: "saved-error", status };
  return { kind: "unknown", reason: `PSP answered ${status}` };
}
