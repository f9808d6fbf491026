import { v7 } from "uuid";
import { type ClientEvent, safeEmitter } from "./client-events";
import type { KeyJournal } from "./journal/key-journal";
import { orderLocks } from "./operations/order-lock";

/** The phone's timeout of Formula 2 (Part 4): longer than the server's 5 s deadline plus the trip to it. */
export const DEFAULT_TIMEOUT_MS = 10_000;
/**
 * How long one call keeps retrying before it answers `processing` and leaves the rest to resolve():
 * a 10 s timeout, the server's 5 s deadline and a PSP webhook a few seconds later fit in it twice,
 * and it is about as long as a buyer watches a spinner.
 */
export const DEFAULT_HORIZON_MS = 45_000;
/** Full jitter: each wait is random in [0, min(cap, base * 2^(retry-1))). */
export const DEFAULT_BACKOFF = { baseMs: 500, capMs: 8_000 } as const;

/** How the app builds a payments client. */
export interface PaymentsClientOptions {
  /** The API's address, e.g. `http://127.0.0.1:3000`. */
  baseUrl: string;
  /** The caller's JWT; asked for on every attempt, so a refreshed token is picked up. */
  token: () => string | Promise<string>;
  /** Where each order's key is kept before the first send. */
  journal: KeyJournal;
  /** Defaults to the global fetch (Node 20+, browsers, React Native). */
  fetch?: typeof fetch;
  /** One attempt's budget, answer body included (default 10 s). */
  timeoutMs?: number;
  /** No attempt starts later than this after the call began (default 45 s). */
  horizonMs?: number;
  backoff?: { baseMs?: number; capMs?: number };
  /** A log hook; events carry no card data. */
  onEvent?: (event: ClientEvent) => void;
  /** For unit tests: the clock, the wait and the jitter's randomness. */
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
  random?: () => number;
  /**
   * UNSAFE, tests only: a new Idempotency-Key on every retry, the opening story's double charge.
   * It exists so that a test can show the double charge the shipped client prevents; never set it in an app.
   */
  unsafeTestOnly?: { newKeyPerRetry?: boolean };
}

/** The options with every default filled in, as the operations use them. */
export interface Runtime {
  baseUrl: string;
  token: () => string | Promise<string>;
  journal: KeyJournal;
  fetch: typeof fetch;
  timeoutMs: number;
  horizonMs: number;
  backoff: { baseMs: number; capMs: number };
  emit: (event: ClientEvent) => void;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
  random: () => number;
  newKey: () => string;
  newKeyPerRetry: boolean;
  locks: ReturnType<typeof orderLocks>;
}

function positive(name: string, value: number): number {
  if (!Number.isFinite(value) || value <= 0) throw new RangeError(`${name} must be a positive number of ms`);
  return value;
}

/** Fills in the defaults and refuses options that could never work (a programming error, so it throws). */
export function runtimeOf(opts: PaymentsClientOptions): Runtime {
  if (!/^https?:\/\//.test(opts.baseUrl))
    throw new TypeError(`baseUrl must be an http(s) URL (got ${opts.baseUrl})`);
  const emit = safeEmitter(opts.onEvent);
  const newKeyPerRetry = opts.unsafeTestOnly?.newKeyPerRetry === true;
  if (newKeyPerRetry) emit({ type: "unsafe-test-only", switch: "newKeyPerRetry" });
  return {
    baseUrl: opts.baseUrl.replace(/\/+$/, ""),
    token: opts.token,
    journal: opts.journal,
    // Bound lazily: a browser's fetch called off its object throws "Illegal invocation".
    fetch: opts.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    timeoutMs: positive("timeoutMs", opts.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    horizonMs: positive("horizonMs", opts.horizonMs ?? DEFAULT_HORIZON_MS),
    backoff: {
      baseMs: positive("backoff.baseMs", opts.backoff?.baseMs ?? DEFAULT_BACKOFF.baseMs),
      capMs: positive("backoff.capMs", opts.backoff?.capMs ?? DEFAULT_BACKOFF.capMs),
    },
    emit,
    sleep: opts.sleep ?? ((ms) => new Promise((done) => setTimeout(done, ms))),
    now: opts.now ?? Date.now,
    random: opts.random ?? Math.random,
    newKey: () => v7(),
    newKeyPerRetry,
    locks: orderLocks(),
  };
}
