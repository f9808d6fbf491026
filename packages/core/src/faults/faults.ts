/**
 * Armed faults, each for the next `n` occurrences. Nothing arms them in AWS (the `/_local` routes
 * are never deployed), so in production every `takeFault` answers undefined.
 */
export type FaultName =
  | "psp_lose_reply"
  | "psp_delay_ms"
  | "psp_fail"
  | "psp_refund_refuse"
  | "psp_search_lag"
  | "psp_lookup_delay_ms"
  | "stall_after_claim_ms"
  | "relay_crash_after_publish"
  | "worker_crash_after_commit"
  | "worker_crash_after_send";

export const FAULT_NAMES: readonly FaultName[] = [
  "psp_lose_reply",
  "psp_delay_ms",
  "psp_fail",
  "psp_refund_refuse",
  "psp_search_lag",
  "psp_lookup_delay_ms",
  "stall_after_claim_ms",
  "relay_crash_after_publish",
  "worker_crash_after_commit",
  "worker_crash_after_send",
];

interface Armed {
  value: number;
  remaining: number;
}

const armed = new Map<FaultName, Armed>();

/** Arms a fault for the next `n` occurrences; `value` is the delay or status where the fault has one. */
export function armFault(name: FaultName, value: number, n: number): void {
  if (n <= 0) armed.delete(name);
  else armed.set(name, { value, remaining: n });
}

/** Consumes one occurrence of a fault and returns its value, or undefined when it is not armed. */
export function takeFault(name: FaultName): number | undefined {
  const a = armed.get(name);
  if (!a) return undefined;
  a.remaining -= 1;
  if (a.remaining <= 0) armed.delete(name);
  return a.value;
}

/** Clears every armed fault. */
export function clearFaults(): void {
  armed.clear();
}

/** What is armed now, for `/_local/health` and tests. */
export function armedFaults(): Record<string, { value: number; remaining: number }> {
  return Object.fromEntries([...armed].map(([k, v]) => [k, { ...v }]));
}

/**
 * Parses the contract's `POST /_local/faults` body: `{"psp_lose_reply": 1}` arms for 1 occurrence,
 * `{"psp_delay_ms": 12000, "n": 1}` arms a valued fault for `n` occurrences (default 1).
 */
export function parseFaultRequest(body: unknown): Array<{ name: FaultName; value: number; n: number }> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new TypeError('faults body must be a JSON object such as {"psp_lose_reply": 1}');
  }
  const rec = body as Record<string, unknown>;
  const n = rec.n === undefined ? undefined : Number(rec.n);
  if (n !== undefined && (!Number.isInteger(n) || n < 0))
    throw new TypeError("n must be a non-negative integer");
  const out: Array<{ name: FaultName; value: number; n: number }> = [];
  for (const [key, raw] of Object.entries(rec)) {
    if (key === "n") continue;
    if (!FAULT_NAMES.includes(key as FaultName)) {
      throw new TypeError(`unknown fault "${key}"; known: ${FAULT_NAMES.join(", ")}`);
    }
    const value = Number(raw);
    if (!Number.isFinite(value) || value < 0) throw new TypeError(`fault ${key} needs a non-negative number`);
    const valued =
      key === "psp_delay_ms" ||
      key === "psp_fail" ||
      key === "psp_lookup_delay_ms" ||
      key === "stall_after_claim_ms";
    out.push({ name: key as FaultName, value, n: valued ? (n ?? 1) : (n ?? value) });
  }
  if (out.length === 0) throw new TypeError("no fault named in the body");
  return out;
}
