import { type IncomingHttpHeaders, request } from "node:http";

/** One HTTP answer from the fake PSP, body parsed as JSON. */
export interface Answer<T = unknown> {
  status: number;
  headers: IncomingHttpHeaders;
  body: T;
}

/** The parts of a request a test varies. */
export interface CallOptions {
  key?: string;
  account?: string;
  json?: Record<string, unknown>;
  form?: Record<string, string>;
  /** Sent as the User-Agent, e.g. `effectively-once (live)`. */
  userAgent?: string;
  /** Aborts the request after this many ms, as a client that gives up would. */
  abortAfterMs?: number;
}

function encode(opts: CallOptions): { body: string; type?: string } {
  if (opts.json) return { body: JSON.stringify(opts.json), type: "application/json" };
  if (opts.form)
    return { body: new URLSearchParams(opts.form).toString(), type: "application/x-www-form-urlencoded" };
  return { body: "" };
}

function headersFor(opts: CallOptions, body: string, type: string | undefined): Record<string, string> {
  const headers: Record<string, string> = { "Content-Length": String(Buffer.byteLength(body)) };
  if (type) headers["Content-Type"] = type;
  if (opts.key !== undefined) headers["Idempotency-Key"] = opts.key;
  if (opts.account !== undefined) headers.Authorization = `Bearer ${opts.account}`;
  if (opts.userAgent !== undefined) headers["User-Agent"] = opts.userAgent;
  return headers;
}

/** Sends one request over loopback on a fresh connection; rejects when the socket dies unanswered. */
export function call<T = unknown>(baseUrl: string, method: string, path: string, opts: CallOptions = {}) {
  const { body, type } = encode(opts);
  return new Promise<Answer<T>>((resolve, reject) => {
    const req = request(`${baseUrl}${path}`, { method, agent: false, headers: headersFor(opts, body, type) });
    const giveUp =
      opts.abortAfterMs === undefined
        ? undefined
        : setTimeout(() => req.destroy(new Error("client gave up")), opts.abortAfterMs);
    req.on("close", () => clearTimeout(giveUp));
    req.on("response", (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) as T });
      });
      res.on("error", reject);
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The charge object the PSP answers with. */
export interface ChargeJson {
  id: string;
  object: "charge";
  amount: number;
  currency: string;
  reference: string;
  idempotency_key: string;
  status: string;
  refunded: boolean;
}

/** The error envelope the PSP answers with. */
export interface ErrorJson {
  error: { type: string; code?: string; decline_code?: string; charge?: string; message?: string };
}

/** A valid charge body; `over` changes single fields. */
export function chargeBody(over: Record<string, unknown> = {}): Record<string, unknown> {
  return { amount: 3000, currency: "USD", payment_method: "pm_1", reference: "pay_1", ...over };
}
