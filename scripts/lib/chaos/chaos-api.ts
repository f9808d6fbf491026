import { mintToken } from "../../../packages/local/src/runtime/jwt";

/** One answer as a client saw it; status 0 is no answer at all (a timeout or a dropped connection). */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  replayed: boolean;
  /** The Retry-After header, where the answer carries one. */
  retryAfter?: string;
}

const CLIENT_TIMEOUT_MS = 6_000;

/** The public API and the `/_local` routes of one local stack, as a client and an operator reach them. */
export class ChaosApi {
  private readonly tokens = new Map<string, string>();

  private url: string;

  constructor(baseUrl: string) {
    this.url = loopback(baseUrl);
  }

  /** The API the clients call now: the active Region's. */
  get baseUrl(): string {
    return this.url;
  }

  /** Sends the clients to another Region's API (after a failover), which must be loopback too. */
  retarget(baseUrl: string): void {
    this.url = loopback(baseUrl);
  }

  /** A token for a caller, with an email claim so that receipts go out. */
  async token(caller: string): Promise<string> {
    const known = this.tokens.get(caller);
    if (known) return known;
    const minted = await mintToken(caller, { email: emailOf(caller) });
    this.tokens.set(caller, minted);
    return minted;
  }

  async pay(caller: string, key: string, body: unknown): Promise<Answer> {
    return this.call("POST", "/payments", caller, body, { "idempotency-key": key });
  }

  async resolve(caller: string, key: string): Promise<Answer> {
    return this.call("POST", "/payments/resolve", caller, {}, { "idempotency-key": key });
  }

  async cancel(caller: string, paymentId: string): Promise<Answer> {
    return this.call("POST", `/payments/${paymentId}/cancel`, caller, {});
  }

  async payment(caller: string, paymentId: string): Promise<Answer> {
    return this.call("GET", `/payments/${paymentId}`, caller);
  }

  async registerDevice(caller: string): Promise<Answer> {
    return this.call("POST", "/devices", caller, { platform: "apns", token: `chaos-${caller}` });
  }

  async local<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${this.baseUrl}/_local${path}`, {
      method,
      headers: body === undefined ? {} : { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(60_000),
    });
    const parsed = (await res.json().catch(() => ({}))) as T;
    if (res.status >= 400)
      throw new Error(`${method} /_local${path}: ${res.status} ${JSON.stringify(parsed)}`);
    return parsed;
  }

  private async call(
    method: string,
    path: string,
    caller: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer> {
    try {
      const res = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${await this.token(caller)}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
      });
      const parsed = (await res.json().catch(() => ({}))) as Record<string, unknown>;
      return {
        status: res.status,
        body: parsed,
        replayed: res.headers.get("idempotent-replayed") === "true",
        ...(res.headers.has("retry-after") ? { retryAfter: res.headers.get("retry-after") ?? "" } : {}),
      };
    } catch (err) {
      return { status: 0, body: { error: (err as Error).message }, replayed: false };
    }
  }
}

function loopback(url: string): string {
  const host = new URL(url).hostname;
  if (host !== "127.0.0.1" && host !== "localhost")
    throw new Error(`chaos runs on loopback only, not ${host}`);
  return url;
}

/** The receipt address of a caller (the token's email claim). */
export const emailOf = (caller: string): string => `${caller}@chaos.example`;
