/** Cumulative counters read at each console poll, kept long enough to answer "how many in the last N seconds". */
export class WindowedCounters {
  private readonly samples: Array<{ atMs: number; values: Record<string, number> }> = [];

  constructor(private readonly keepMs = 30 * 60_000) {}

  /** Records the counters' values now, and forgets readings older than the longest window asked for. */
  record(atMs: number, values: Record<string, number>): void {
    this.samples.push({ atMs, values });
    while (this.samples.length > 2 && (this.samples[1]?.atMs ?? atMs) < atMs - this.keepMs)
      this.samples.shift();
  }

  /**
   * How much a counter grew over the last `windowMs`, as a CloudWatch Sum over one period would count it: from the
   * oldest reading inside the window (or the first reading of all, when the console has run less than the window).
   */
  increase(key: string, windowMs: number): number {
    const last = this.samples[this.samples.length - 1];
    if (!last) return 0;
    const from = this.samples.find((s) => s.atMs >= last.atMs - windowMs) ?? last;
    return Math.max(0, (last.values[key] ?? 0) - (from.values[key] ?? 0));
  }
}
