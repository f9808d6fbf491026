import { createHash } from "node:crypto";

/**
 * The history of a run: one line per event, stamped with virtual time, so two runs of a seed can be compared byte
 * for byte and a violation's trace replayed.
 */
export class TraceLog {
  private readonly lines: string[] = [];

  constructor(private readonly now: () => number) {}

  /** Appends an event (a string as is, anything else as JSON with sorted keys) at the current virtual time. */
  add(event: unknown): void {
    const text = typeof event === "string" ? event : stableJson(event);
    this.lines.push(`${this.now()} ${text}`);
  }

  /** Every line so far, oldest first. */
  history(): readonly string[] {
    return this.lines;
  }

  /** SHA-256 (hex) of the history joined by newlines. */
  hash(): string {
    return createHash("sha256").update(this.lines.join("\n")).digest("hex");
  }
}

function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return typeof v === "bigint" ? `${v}n` : v;
    const sorted: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) sorted[k] = (v as Record<string, unknown>)[k];
    return sorted;
  });
}
