import type { PspOrigin } from "../psp/psp-port";
import {
  type BudgetRates,
  endpointRateOf,
  type PspBudget,
  type PspEndpoint,
  SEARCH_ENDPOINT,
  type Slot,
  searchRateOf,
} from "./psp-budget";
import { unsafeNoPspBudget } from "./psp-budget-test-switches";

/**
 * The PSP budget for one process (tests, benches): the same evenly spaced slots as DynamoPspBudget (GCRA, one
 * theoretical arrival time per bucket) and the same caps, search's own first; without the shared item, and
 * without the resolver's priority, so it holds only where one process is the account's only sender.
 */
export class MemoryPspBudget implements PspBudget {
  private readonly tat = new Map<string, number>();

  constructor(
    private readonly rates: BudgetRates,
    private readonly now: () => number = () => Date.now(),
  ) {}

  async reserve(endpoint: PspEndpoint, _origin: PspOrigin, maxWaitMs: number): Promise<Slot> {
    if (unsafeNoPspBudget()) return { granted: true, atMs: this.now() };
    const read = 1000 / endpointRateOf(this.rates);
    if (endpoint !== SEARCH_ENDPOINT) return this.take(endpoint, read, this.now(), maxWaitMs);
    // A search waits for its own cap first, then takes a read's slot no earlier than its own.
    const own = this.take(SEARCH_ENDPOINT, 1000 / searchRateOf(this.rates), this.now(), maxWaitMs);
    if (!own.granted) return own;
    return this.take("GET /v1/charges", read, own.atMs, maxWaitMs - (own.atMs - this.now()));
  }

  private take(bucket: string, intervalMs: number, notBefore: number, maxWaitMs: number): Slot {
    const now = this.now();
    const at = Math.max(notBefore, this.tat.get(bucket) ?? 0);
    if (at - now > maxWaitMs) return { granted: false, retryAfterMs: at - now };
    this.tat.set(bucket, at + intervalMs);
    return { granted: true, atMs: at, spacingMs: intervalMs };
  }
}
