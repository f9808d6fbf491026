import { type PaymentRequest, PROBLEM_BASE } from "@eo/contract";
import type { ClientEvent, PaymentsClientOptions } from "../../src/index";
import { memoryJournal } from "../../src/index";

/** One request as the fake fetch saw it. */
export interface SeenCall {
  method: string;
  path: string;
  key?: string;
  body?: unknown;
  at: number;
}

/** A scripted answer: an HTTP reply, a network failure, or no answer at all (until the client aborts). */
export type Scripted =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  | "network"
  | "hang";

/** The contract's problem body for a kind. */
export function problem(kind: string, status: number, headers: Record<string, string> = {}): Scripted {
  return {
    status,
    headers: { "content-type": "application/problem+json", ...headers },
    body: { type: `${PROBLEM_BASE}${kind}`, title: kind, status, detail: `the server says ${kind}` },
  };
}

export const PAYMENT_ID = "pay_0123456789abcdef0123456789abcdef";
export const succeeded = (headers: Record<string, string> = {}): Scripted => ({
  status: 201,
  headers,
  body: {
    payment_id: PAYMENT_ID,
    state: "SUCCEEDED",
    order_id: "42",
    amount: 3000,
    currency: "USD",
    merchant_id: "m1",
    psp_charge: "ch_1",
  },
});
export const processing = (retryAfterS = 2): Scripted => ({
  status: 202,
  headers: { "retry-after": String(retryAfterS) },
  body: { payment_id: PAYMENT_ID, state: "PROCESSING" },
});

/** The card token the tests look for in every log line: it must never appear. */
export const CARD = "pm_card_4242_secret";
export const order42 = (over: Partial<PaymentRequest> = {}): PaymentRequest => ({
  order_id: "42",
  amount: 3000,
  currency: "USD",
  payment_method: CARD,
  merchant_id: "m1",
  ...over,
});

function answer(scripted: Scripted, signal: AbortSignal | null | undefined): Promise<Response> {
  if (scripted === "network") return Promise.reject(new TypeError("fetch failed"));
  if (scripted === "hang") {
    return new Promise((_, reject) =>
      signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
    );
  }
  const body = scripted.body === undefined ? null : JSON.stringify(scripted.body);
  return Promise.resolve(new Response(body, { status: scripted.status, headers: scripted.headers }));
}

/**
 * A fake API for the retry policy only (what a real stack cannot be made to answer on cue): each call
 * takes the next scripted answer (or builds it from the fake clock's time), the last one repeating; a fake clock that sleeps by moving on.
 */
export function fakeApi(
  script: Array<Scripted | ((now: number) => Scripted)>,
  over: Partial<PaymentsClientOptions> = {},
) {
  let now = Date.UTC(2025, 0, 1);
  const calls: SeenCall[] = [];
  const slept: number[] = [];
  const events: ClientEvent[] = [];
  const journal = memoryJournal();
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const headers = new Headers(init?.headers);
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({
      method: init?.method ?? "GET",
      path: url.pathname,
      key: headers.get("idempotency-key") ?? undefined,
      body,
      at: now,
    });
    const next = script[Math.min(calls.length - 1, script.length - 1)];
    return answer(typeof next === "function" ? next(now) : (next ?? "network"), init?.signal);
  }) as typeof globalThis.fetch;
  const options: PaymentsClientOptions = {
    baseUrl: "http://api.test",
    token: () => "token-u1",
    journal,
    fetch,
    now: () => now,
    sleep: async (ms) => {
      slept.push(ms);
      now += ms;
    },
    random: () => 0.5,
    onEvent: (e) => events.push(e),
    ...over,
  };
  return { options, calls, slept, events, journal, advance: (ms: number) => (now += ms), now: () => now };
}
