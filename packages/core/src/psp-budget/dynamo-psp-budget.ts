import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Clock } from "../clock/clock";
import type { PspOrigin } from "../psp/psp-port";
import { GcraBuckets } from "./gcra-buckets";
import {
  type BudgetRates,
  endpointRateOf,
  type PspBudget,
  type PspEndpoint,
  SEARCH_ENDPOINT,
  type Slot,
  searchRateOf,
} from "./psp-budget";
import { unsafeNoPspBudget, unsafeResolverQueuesLikeLive } from "./psp-budget-test-switches";
import { sleep } from "./within-budget";

/**
 * The PSP budget on GCRA buckets in the claim table (home-Region, or the strongly consistent one), so it holds
 * across every concurrent Lambda of the Region that calls the PSP. Rates are real time, never the test clock.
 */
export class DynamoPspBudget implements PspBudget {
  private readonly buckets: GcraBuckets;
  /** The spacing of an endpoint's slots (ms): the rates are fixed for the life of the process. */
  private readonly interval: number;

  constructor(
    db: DynamoDBDocumentClient,
    table: string,
    private readonly rates: BudgetRates,
    expiryClock: Clock,
    private readonly now: () => number = () => Date.now(),
  ) {
    this.buckets = new GcraBuckets(db, table, () => expiryClock.now());
    this.interval = 1000 / endpointRateOf(rates);
  }

  async reserve(endpoint: PspEndpoint, origin: PspOrigin, maxWaitMs: number): Promise<Slot> {
    if (unsafeNoPspBudget()) return { granted: true, atMs: this.now() };
    if (endpoint === SEARCH_ENDPOINT) return this.search(origin, maxWaitMs);
    const slot = await this.take(endpoint, origin, maxWaitMs);
    return slot.granted ? { ...slot, spacingMs: this.interval } : slot;
  }

  private async take(endpoint: PspEndpoint, origin: PspOrigin, maxWaitMs: number): Promise<Slot> {
    const now = this.now();
    if (origin === "resolver") {
      const own = await this.resolverTurn(now, maxWaitMs);
      if (!own.granted) return own;
      if (!unsafeResolverQueuesLikeLive()) return this.idleSlot(endpoint, now + maxWaitMs);
    }
    return this.buckets.queue(`psp#${endpoint}`, this.interval, now, now + maxWaitMs);
  }

  // Search waits for its own cap's slot first (Stripe's stricter limit), then takes a read's slot with what is
  // left of the wait: a search also counts against the basic limits.
  private async search(origin: PspOrigin, maxWaitMs: number): Promise<Slot> {
    const start = this.now();
    const own = await this.buckets.queue(
      `psp#${SEARCH_ENDPOINT}`,
      1000 / searchRateOf(this.rates),
      start,
      start + maxWaitMs,
    );
    if (!own.granted) return own;
    await sleep(own.atMs - this.now());
    return this.reserve("GET /v1/charges", origin, Math.max(0, maxWaitMs - (this.now() - start)));
  }

  // The resolver's own cap comes first: however idle the PSP is, replays never go faster than it.
  private async resolverTurn(now: number, maxWaitMs: number): Promise<Slot> {
    const slot = await this.buckets.queue(
      "psp#resolver",
      1000 / this.rates.resolverPerS,
      now,
      now + maxWaitMs,
    );
    if (slot.granted) await sleep(slot.atMs - this.now());
    return slot;
  }

  // Live payments have priority: the resolver takes an endpoint slot only when no live request has reserved
  // one ahead of now, so a replay can delay a live request by one interval at most and never pushes it out.
  private async idleSlot(endpoint: PspEndpoint, latestMs: number): Promise<Slot> {
    for (;;) {
      const now = this.now();
      const idle = await this.buckets.idle(`psp#${endpoint}`, this.interval, now);
      if (idle.granted) return idle;
      const wait = Math.max(1, idle.busyUntilMs - now);
      if (now + wait > latestMs) return { granted: false, retryAfterMs: wait };
      await sleep(wait);
    }
  }
}
