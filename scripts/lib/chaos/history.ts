import type { Answer } from "./chaos-api";
import type { ClientSwitches, Schedule } from "./schedule";

/**
 * One entry of a run's history, Jepsen style: a client's `invoke`, then `ok` (it happened), `fail` (it did not,
 * by the contract's word) or `info` (the outcome is unknown: a timeout, a 202, a 5xx). Faults are `fault` entries.
 */
export interface HistoryEntry {
  at_ms: number;
  process: string;
  type: "invoke" | "ok" | "fail" | "info" | "fault";
  op: string;
  order?: number;
  key?: string;
  payment_id?: string;
  status?: number;
  state?: string;
  replayed?: boolean;
  detail?: string;
}

/** A run as it is kept on disk: enough to replay it and to read what happened. */
export interface RunRecord {
  seed?: number;
  path?: string;
  schedule: Schedule;
  switches: ClientSwitches & { server: string[] };
  history: HistoryEntry[];
  faultsFired: Record<string, number>;
  violations: Violation[];
  timing?: Record<string, number>;
  final?: unknown;
}

/** A guarantee the checker found broken, with its reason. */
export interface Violation {
  check: string;
  reason: string;
}

/** A violation of one check, with its reason. */
export const violation = (check: string, reason: string): Violation => ({ check, reason });

/** Records a history with times counted from the start of the run. */
export class History {
  readonly entries: HistoryEntry[] = [];
  readonly faultsFired: Record<string, number> = {};
  private readonly started = Date.now();

  add(entry: Omit<HistoryEntry, "at_ms">): void {
    this.entries.push({ at_ms: Date.now() - this.started, ...entry });
  }

  fired(name: string, detail?: string): void {
    this.faultsFired[name] = (this.faultsFired[name] ?? 0) + 1;
    this.add({ process: "nemesis", type: "fault", op: name, ...(detail ? { detail } : {}) });
  }

  /** Records a client's answer as ok, fail or info, by what the contract says the status means. */
  answered(process: string, op: string, order: number, key: string | undefined, a: Answer): void {
    const paymentId = typeof a.body.payment_id === "string" ? a.body.payment_id : undefined;
    const state = typeof a.body.state === "string" ? a.body.state : undefined;
    const type = classify(op, a);
    const detail = typeof a.body.type === "string" ? String(a.body.type).split("/").pop() : undefined;
    this.add({
      process,
      type,
      op,
      order,
      key,
      payment_id: paymentId,
      status: a.status,
      state,
      replayed: a.replayed,
      detail,
    });
  }
}

/** What an answer means: `ok` it happened, `fail` nothing ran, `info` unknown. */
function classify(op: string, a: Answer): HistoryEntry["type"] {
  if (op === "pay") {
    if (a.status === 201 || a.status === 402) return "ok";
    if (a.status === 400 || a.status === 413 || a.status === 422) return "fail";
    if (a.status === 409 && String(a.body.type ?? "").endsWith("/key-voided")) return "fail";
    if (a.status === 503 && /psp-unavailable|deadline-passed/.test(String(a.body.type ?? ""))) return "fail";
    return "info";
  }
  if (op === "resolve") return a.status === 200 ? "ok" : "info";
  if (op === "cancel") {
    if (a.status === 200) return "ok";
    if (a.status === 404 || a.status === 409) return "fail";
    return "info";
  }
  return a.status >= 200 && a.status < 300 ? "ok" : "info";
}

/** A Region failing mid-replication, as the nemesis records it. */
export const isRegionFailure = (e: HistoryEntry): boolean =>
  e.type === "fault" && (e.op === "region_fail" || e.op.startsWith("region_partition"));

/** How many times a Region failed in a run: each allows one more copy of what its last second had sent. */
export const regionFailures = (history: HistoryEntry[]): number => history.filter(isRegionFailure).length;
