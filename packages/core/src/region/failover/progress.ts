/** One step of the run, as the summary and the JSON report show it. */
export interface StepResult {
  step: string;
  ok: boolean;
  detail: string;
  ms: number;
}

/** Prints progress lines as the run goes (to stderr when stdout carries the JSON report) and keeps the steps. */
export class Progress {
  readonly steps: StepResult[] = [];
  private readonly started = Date.now();

  constructor(private readonly out: (line: string) => void) {}

  /** A line of progress, stamped with the time since the start. */
  say(line: string): void {
    this.out(`[${((Date.now() - this.started) / 1000).toFixed(1).padStart(6)} s] ${line}`);
  }

  /** Runs a step, timing it, and records whether it held. */
  async step<T>(
    name: string,
    run: () => Promise<{ ok: boolean; detail: string; value?: T }>,
  ): Promise<T | undefined> {
    const t = Date.now();
    this.say(`${name}…`);
    let result: { ok: boolean; detail: string; value?: T };
    try {
      result = await run();
    } catch (err) {
      result = { ok: false, detail: (err as Error).message };
    }
    this.steps.push({ step: name, ok: result.ok, detail: result.detail, ms: Date.now() - t });
    this.say(`${result.ok ? "ok  " : "FAIL"} ${name}: ${result.detail}`);
    return result.ok ? (result.value ?? (true as T)) : undefined;
  }

  /** The summary table an on-call engineer reads at a glance. */
  summary(): string {
    const w = Math.max(...this.steps.map((s) => s.step.length), 4);
    const rows = this.steps.map(
      (s) => `  ${s.ok ? "ok  " : "FAIL"}  ${s.step.padEnd(w)}  ${String(s.ms).padStart(6)} ms  ${s.detail}`,
    );
    return ["summary:", ...rows, `  total ${((Date.now() - this.started) / 1000).toFixed(1)} s`].join("\n");
  }
}
