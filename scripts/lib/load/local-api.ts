/** The `/_local` inspection routes and the payment reads the generator uses (loopback only). */
export class LocalApi {
  constructor(readonly baseUrl: string) {}

  /** A read, tried three times: after a load the stack can be slow to answer, and a check must not die of it. */
  async get<T>(path: string, token?: string): Promise<{ status: number; body: T }> {
    for (let attempt = 1; ; attempt++) {
      try {
        const res = await fetch(`${this.baseUrl}${path}`, {
          headers: token ? { authorization: `Bearer ${token}` } : {},
          signal: AbortSignal.timeout(15_000),
        });
        return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
      } catch (err) {
        if (attempt >= 3) throw err;
      }
    }
  }

  async post<T>(path: string, body: unknown = {}): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.baseUrl}${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(120_000),
    });
    return { status: res.status, body: (await res.json().catch(() => ({}))) as T };
  }

  async del(path: string): Promise<void> {
    await fetch(`${this.baseUrl}${path}`, { method: "DELETE", signal: AbortSignal.timeout(15_000) });
  }
}

/** The fake PSP's cumulative counters (`GET /_local/psp/stats`). */
export interface PspStatsView {
  requests: number;
  by_origin: { live: number; resolver: number; other: number };
  rate_limited: number;
}

/** The ledger's not-yet-final payments by state (`GET /_local/backlog`). */
export interface BacklogView {
  total: number;
}
