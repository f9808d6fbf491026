import { latencyHistogram, percentilesOf, record } from "./histograms";
import type { BacklogView, LocalApi, PspStatsView } from "./local-api";
import type { SecondSample } from "./report-types";

/** Counts one second of the run and turns it into a sample, with the latest readings of the PSP's and ledger's gauges. */
export class Sampler {
  readonly seconds: SecondSample[] = [];
  private current = this.fresh();
  private firstMs = latencyHistogram();
  private lastPsp: PspStatsView | undefined;
  private latestPsp: PspStatsView | undefined;
  private latestBacklog = 0;
  inFlight = 0;

  constructor(
    private readonly api: LocalApi,
    private readonly startedAt: number,
  ) {}

  offered(): void {
    this.current.offered += 1;
    this.inFlight += 1;
  }

  firstAnswer(status: string, latencyMs: number): void {
    this.current.first_answers[status] = (this.current.first_answers[status] ?? 0) + 1;
    if (status === "201" || status === "202" || status === "402") this.current.accepted += 1;
    record(this.firstMs, latencyMs);
  }

  finished(final: boolean): void {
    this.inFlight -= 1;
    if (final) this.current.finals += 1;
  }

  /**
   * Closes the second from the generator's own counters, at once, and the latest readings of the stack's gauges.
   * The stack is read in the background (one read at a time): an overloaded stack answers late, and a progress
   * line that waited for it would stop being one a second. Late readings put their PSP calls in the second they
   * arrive in; the totals stay exact.
   */
  tick(): SecondSample {
    const psp = this.latestPsp ?? this.lastPsp;
    const before = this.lastPsp ?? psp;
    const p = percentilesOf(this.firstMs);
    const sample: SecondSample = {
      ...this.current,
      t: Math.round((Date.now() - this.startedAt) / 1000),
      in_flight: this.inFlight,
      psp_live: psp && before ? psp.by_origin.live - before.by_origin.live : 0,
      psp_resolver: psp && before ? psp.by_origin.resolver - before.by_origin.resolver : 0,
      psp_429: psp && before ? psp.rate_limited - before.rate_limited : 0,
      unknown_backlog: this.latestBacklog,
      first_answer_ms: { p50: p.p50, p99: p.p99 },
    };
    this.lastPsp = psp;
    this.seconds.push(sample);
    this.current = this.fresh();
    this.firstMs = latencyHistogram();
    return sample;
  }

  /** Reads the stack's gauges until `stop()`, one read at a time, keeping the latest. */
  readInBackground(): { stop: () => Promise<void> } {
    let stopped = false;
    const loop = (async () => {
      while (!stopped) {
        const started = Date.now();
        await this.readGauges().catch(() => undefined);
        await new Promise((done) => setTimeout(done, Math.max(0, 500 - (Date.now() - started))));
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        await loop;
        await this.readGauges().catch(() => undefined);
      },
    };
  }

  private async readGauges(): Promise<void> {
    const [psp, backlog] = await Promise.all([
      this.api.get<PspStatsView>("/_local/psp/stats").then((r) => r.body),
      this.api.get<BacklogView>("/_local/backlog").then((r) => r.body.total),
    ]);
    this.latestPsp = psp;
    this.latestBacklog = backlog;
  }

  /** Reads the PSP's counters once before the first arrival, so the first second counts only the run. */
  async baseline(): Promise<void> {
    this.lastPsp = (await this.api.get<PspStatsView>("/_local/psp/stats")).body;
  }

  private fresh(): Omit<
    SecondSample,
    "t" | "in_flight" | "psp_live" | "psp_resolver" | "psp_429" | "unknown_backlog" | "first_answer_ms"
  > {
    return { offered: 0, accepted: 0, first_answers: {}, finals: 0 };
  }
}

/** The progress line of one second. */
export function progressLine(s: SecondSample): string {
  const answers = Object.entries(s.first_answers)
    .map(([k, n]) => `${k}:${n}`)
    .join(" ");
  return (
    `t=${String(s.t).padStart(3)}s offered ${String(s.offered).padStart(3)} accepted ${String(s.accepted).padStart(3)} ` +
    `in flight ${String(s.in_flight).padStart(4)} | PSP live ${s.psp_live}/s resolver ${s.psp_resolver}/s 429s ${s.psp_429} ` +
    `| backlog ${s.unknown_backlog} | first answer p50 ${s.first_answer_ms.p50} ms p99 ${s.first_answer_ms.p99} ms | ${answers}`
  );
}
