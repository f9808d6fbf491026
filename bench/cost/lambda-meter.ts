/**
 * Lambda's side of a payment's cost: each handler invocation the local runtime ran, billed as Lambda bills it (its
 * duration rounded up to the next millisecond, times the memory of its handler spec) and priced at arm64's rate.
 * The durations are this machine's (handlers in one Node.js process, emulators beside them), not Lambda's.
 */

import { onInvocationTimed } from "../../packages/local/src/runtime/invocation-timing";
import { handlers } from "../../stacks/handlers";

/**
 * us-east-1, arm64, the first pricing tier (the first 7.5 billion GB-seconds a month), and requests at any
 * architecture: https://aws.amazon.com/lambda/pricing/ (its tables are rendered in the browser; the same figures
 * are quoted at https://cloudchipr.com/blog/aws-lambda-pricing).
 */
export const LAMBDA_PRICES = { perGbSecond: 0.0000133334, perMillionRequests: 0.2 };

/** One function's invocations: how many, their billed milliseconds, and the GB-seconds they come to. */
export interface FunctionUse {
  invocations: number;
  billedMs: number;
  gbSeconds: number;
}

const memoryOf = new Map(handlers.map((h) => [h.id, h.memoryMB]));

/** Sums the invocations that end while it listens, by function, until reset. */
export class LambdaMeter {
  private use = new Map<string, FunctionUse>();
  private readonly stop: () => void;

  constructor() {
    this.stop = onInvocationTimed(({ functionId, durationMs }) => {
      const memoryMB = memoryOf.get(functionId);
      if (memoryMB === undefined) return;
      const billedMs = Math.ceil(durationMs);
      const u = this.use.get(functionId) ?? { invocations: 0, billedMs: 0, gbSeconds: 0 };
      u.invocations += 1;
      u.billedMs += billedMs;
      u.gbSeconds += (billedMs / 1000) * (memoryMB / 1024);
      this.use.set(functionId, u);
    });
  }

  reset(): void {
    this.use = new Map();
  }

  /** What was billed since the last reset, by function id. */
  snapshot(): Map<string, FunctionUse> {
    return new Map([...this.use].map(([id, u]) => [id, { ...u }]));
  }

  close(): void {
    this.stop();
  }
}

/** Adds one snapshot into running totals. */
export function addUse(into: Map<string, FunctionUse>, from: Map<string, FunctionUse>): void {
  for (const [id, u] of from) {
    const t = into.get(id) ?? { invocations: 0, billedMs: 0, gbSeconds: 0 };
    t.invocations += u.invocations;
    t.billedMs += u.billedMs;
    t.gbSeconds += u.gbSeconds;
    into.set(id, t);
  }
}

/** The totals over every function. */
export function totalUse(use: Map<string, FunctionUse>): FunctionUse {
  const t = { invocations: 0, billedMs: 0, gbSeconds: 0 };
  for (const u of use.values()) {
    t.invocations += u.invocations;
    t.billedMs += u.billedMs;
    t.gbSeconds += u.gbSeconds;
  }
  return t;
}

/** What one payment's invocations cost in dollars: duration at arm64's rate plus the requests. */
export function lambdaCostOf(u: FunctionUse): number {
  return u.gbSeconds * LAMBDA_PRICES.perGbSecond + (u.invocations * LAMBDA_PRICES.perMillionRequests) / 1e6;
}

/** A path's Lambda table, per payment: one line per function (in the manifest's order), then the total. */
export function lambdaTable(title: string, perPayment: Map<string, FunctionUse>): string {
  const line = (name: string, u: FunctionUse, memory: string) =>
    `  ${name.padEnd(22)}${u.invocations.toFixed(2).padStart(7)} ${memory.padStart(8)} ${u.billedMs.toFixed(1).padStart(9)} ${u.gbSeconds.toFixed(4).padStart(9)}`;
  const rows = handlers
    .filter((h) => perPayment.has(h.id))
    .map((h) => line(h.id, perPayment.get(h.id) as FunctionUse, `${h.memoryMB} MB`));
  return [
    `${title}\n  ${"function".padEnd(22)}  calls   memory  billed ms      GB-s`,
    ...rows,
    line("= per payment", totalUse(perPayment), ""),
  ].join("\n");
}

/** Each function's use divided by `n` (the mean of n payments). */
export function meanUse(use: Map<string, FunctionUse>, n: number): Map<string, FunctionUse> {
  return new Map(
    [...use].map(([id, u]) => [
      id,
      { invocations: u.invocations / n, billedMs: u.billedMs / n, gbSeconds: u.gbSeconds / n },
    ]),
  );
}

/** The Lambda line printed beside DynamoDB's: what `perDay` payments' invocations cost a month (30 days). */
export function lambdaMonthLine(perPayment: Map<string, FunctionUse>, perDay: number): string {
  const u = totalUse(perPayment);
  const { perGbSecond, perMillionRequests } = LAMBDA_PRICES;
  return (
    `Lambda, the same payments (arm64, us-east-1: $${perGbSecond} per GB-s, $${perMillionRequests.toFixed(2)} per` +
    ` million requests): $${(lambdaCostOf(u) * perDay * 30).toFixed(2)}/month in the active Region` +
    ` (${u.gbSeconds.toFixed(4)} GB-s and ${u.invocations.toFixed(2)} invocations per payment; durations measured` +
    " on this machine, not on Lambda; before the free tier; the schedules' own passes are not per payment)"
  );
}
