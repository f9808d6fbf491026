import Stripe from "stripe";
import type { PspOrigin } from "./psp-port";

/**
 * The Stripe API version every request names. It is the one stripe-node 23.2.0 was generated for (its
 * `Stripe.API_VERSION`), so the SDK's types describe exactly what comes back; the type check fails here if an SDK
 * upgrade moves it, and the version is then changed on purpose, never by the account's default.
 */
export const STRIPE_API_VERSION = "2026-11-18.endive" as const;

/** Where the SDK sends its requests: Stripe itself when absent, or a Stripe-compatible fake (`http`, a port). */
export interface StripeEndpoint {
  host?: string;
  port?: number;
  protocol?: "http" | "https";
}

/** The answer of a call that came back, apart from the port's `unknown` for one that did not in time. */
export type Timed<T> = { kind: "answer"; value: T } | { kind: "unknown"; reason: string };

type HttpClient = NonNullable<Stripe.StripeConfig["httpClient"]>;

/** The error codes stripe-node treats as "the connection closed", which it retries even with retries off. */
const CLOSED_CODES: readonly string[] = Stripe.HttpClient.CONNECTION_CLOSED_ERROR_CODES;

/**
 * A Stripe client whose only sender of requests is us: `maxNetworkRetries: 0`, because our deadline, our PSP
 * budget and our derived keys decide when a call is sent again (a retry made by the SDK would spend a budget slot
 * we never reserved and could outlive the deadline the call was given).
 */
export function createStripeClient(apiKey: string, endpoint: StripeEndpoint = {}): Stripe {
  return new Stripe(apiKey, {
    apiVersion: STRIPE_API_VERSION,
    maxNetworkRetries: 0,
    httpClient: withoutHiddenRetry(Stripe.createNodeHttpClient()),
    // Latency telemetry would ride on our calls' headers; nothing here needs it.
    telemetry: false,
    ...endpoint,
  });
}

/**
 * stripe-node 23 retries a closed connection (ECONNRESET, EPIPE) once even with `maxNetworkRetries: 0`
 * (RequestSender._shouldRetry, for stale keep-alive sockets). A reply lost after the PSP ran arrives exactly so:
 * renaming the code makes it the StripeConnectionError it is, an unknown for our resolver to settle.
 */
function withoutHiddenRetry(inner: HttpClient): HttpClient {
  return {
    getClientName: () => inner.getClientName(),
    makeRequest: (...args) =>
      inner.makeRequest(...args).catch((err: unknown) => {
        const code = (err as { code?: unknown }).code;
        if (typeof code !== "string" || !CLOSED_CODES.includes(code)) throw err;
        throw Object.assign(new Error(`the connection closed (${code})`, { cause: err }), {
          code: "EO_CONNECTION_CLOSED",
        });
      }),
  };
}

/**
 * The options of one request: its key, what is left of the deadline as the SDK's timeout (a whole number of
 * milliseconds, as the SDK requires), and the origin in the User-Agent for the PSP's logs and the fake's stats.
 */
export function requestOptions(
  apiKey: string | undefined,
  timeoutMs: number,
  origin: PspOrigin = "live",
  idempotencyKey?: string,
): Stripe.RequestOptions {
  return {
    ...(apiKey === undefined ? {} : { apiKey }),
    ...(idempotencyKey === undefined ? {} : { idempotencyKey }),
    timeout: Math.max(1, Math.floor(timeoutMs)),
    maxNetworkRetries: 0,
    headers: {
      "User-Agent": `Stripe/v1 NodeBindings/${Stripe.PACKAGE_VERSION} effectively-once (${origin})`,
      // The send moment, for the local fake's rate limiter (as HttpPsp sends it); Stripe ignores the header.
      "eo-sent-at": String(Date.now()),
    },
  };
}

/**
 * Runs one SDK call within `timeoutMs`: none is sent without time left, and the answer is `unknown` when the
 * time runs out. The SDK's own timeout is a socket idle timeout (node's `req.setTimeout`), not a total one, so our
 * timer bounds the whole call; a call it abandons may still run at the PSP, which is what `unknown` says.
 */
export async function timed<T>(timeoutMs: number, send: (t: number) => Promise<T>): Promise<Timed<T>> {
  if (timeoutMs < 1) return { kind: "unknown", reason: "no time left before the deadline" };
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<Timed<T>>((resolve) => {
    timer = setTimeout(() => resolve({ kind: "unknown", reason: "timed out" }), timeoutMs);
  });
  const sent = send(timeoutMs).then((value): Timed<T> => ({ kind: "answer", value }));
  // An abandoned call's later failure is nobody's to handle: its outcome is already reported as unknown.
  sent.catch(() => undefined);
  try {
    return await Promise.race([sent, late]);
  } finally {
    clearTimeout(timer);
  }
}
