import type { Problem } from "@eo/contract";
import type { Runtime } from "../client-options";
import type { Attempt } from "../http/send-attempt";
import { retryAfterMs } from "./backoff";

/** Why an attempt is worth repeating with the same key, and the server's floor on the wait. */
export interface Again {
  why: string;
  status?: number;
  problem?: Problem;
  floorMs?: number;
  /** A 202 poll: the server is working on it, so the wait is its Retry-After and does not grow. */
  poll?: true;
  /** The server booked a moment for this key: come back at Retry-After exactly, not later (no backoff). */
  booked?: true;
}

/** An answer's problem type, such as `in-progress`, without the base. */
export function problemKind(attempt: Attempt): string | undefined {
  if (attempt.kind !== "answer") return undefined;
  const type = attempt.problem?.type;
  return type?.slice(type.lastIndexOf("/") + 1);
}

/**
 * The repeats every operation retries with the same key: no answer (timeout, network), 5xx, 429 and
 * 409 in-progress. Each of them leaves the outcome unknown or says nothing ran yet.
 */
export function transient(rt: Runtime, attempt: Attempt): Again | undefined {
  if (attempt.kind !== "answer") return { why: attempt.kind };
  const { status, headers, problem } = attempt;
  const floorMs = retryAfterMs(headers.get("retry-after"), rt.now());
  // Our PSP budget's 503 with Retry-After names the time of the slot booked for this key (the fair queue): coming
  // back then is keeping a place, not a failure, so the wait must not grow past it (a later retry loses it).
  if (status === 503 && problemKind(attempt) === "psp-unavailable" && floorMs !== undefined)
    return { why: "slot booked", status, problem, floorMs, poll: true, booked: true };
  if (status >= 500) return { why: `status ${status}`, status, problem, floorMs };
  if (status === 429) return { why: "rate limited", status, problem, floorMs };
  if (status === 409 && problemKind(attempt) === "in-progress")
    return { why: "in progress", status, problem, floorMs };
  return undefined;
}
