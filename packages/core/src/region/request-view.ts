import { AsyncLocalStorage } from "node:async_hooks";
import type { RegionControl } from "./region-control";

/** One read of the authority: what it said, or why it could not be read, and when (wall time) it was made. */
export interface AuthorityRead {
  at: number;
  control?: RegionControl;
  error?: string;
}

/**
 * A request's one view of the authority. The request path reads the authority at most once: the first check (the
 * passive refusal, the fence before the durable guard, a void's epoch) takes the read, and every later check of
 * the same request acts on it. That is as safe as the fence cache: the failover's act window covers a function
 * acting for its whole timeout on a read up to `max(controlCacheMs, fenceCacheMs)` old (act-window.ts).
 */
export interface RequestView {
  read?: Promise<AuthorityRead>;
  /** How long the request has left before its deadline (ms, may be negative): a read may use only part of it. */
  timeLeftMs(): number;
}

const views = new AsyncLocalStorage<RequestView>();

/**
 * EO_TEST_UNSAFE_AUTHORITY_READ_PER_CHECK=1 makes every check of a request read the authority as the jobs do (the
 * fence cache, a fresh read for a void's epoch) and takes the deadline's bound off the read: the request path of
 * issue 40 before item 8, with two or three reads a payment and a slow authority able to eat the deadline.
 */
export const unsafeAuthorityReadPerCheck = (): boolean =>
  process.env.EO_TEST_UNSAFE_AUTHORITY_READ_PER_CHECK === "1";

/** Runs `operation` as one request whose checks share one read of the authority, bounded by its deadline. */
export function withRequestView<T>(timeLeftMs: () => number, operation: () => Promise<T>): Promise<T> {
  return views.run({ timeLeftMs }, operation);
}

/** The request being served, if the caller is one (jobs, the relay and the worker are not). */
export function requestView(): RequestView | undefined {
  return unsafeAuthorityReadPerCheck() ? undefined : views.getStore();
}

/**
 * How long a read of the authority may take within a request: half of what the request has left, between a floor
 * (a request past its deadline still gets a real answer rather than a refusal for want of time) and a ceiling far
 * above the authority's normal latency (a strongly consistent MRSC read is one round trip to the nearest Region).
 */
export function readBudgetMs(view: RequestView, floorMs: number, ceilingMs: number): number {
  return Math.min(ceilingMs, Math.max(floorMs, Math.floor(view.timeLeftMs() / 2)));
}
