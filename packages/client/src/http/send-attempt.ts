import { check, Problem } from "@eo/contract";
import type { Operation } from "../client-events";
import type { Runtime } from "../client-options";

/** One attempt's outcome: an answer, or none (the phone's timer fired, or the network failed). */
export type Attempt =
  | { kind: "answer"; status: number; headers: Headers; body: unknown; problem?: Problem }
  | { kind: "timeout" }
  | { kind: "network"; message: string };

/** One HTTP request of an operation. */
export interface Outgoing {
  op: Operation;
  attempt: number;
  method: "GET" | "POST";
  path: string;
  key?: string;
  body?: unknown;
}

class TimedOut extends Error {}

function messageOf(err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
  const own = err instanceof Error ? err.message : String(err);
  return cause?.code || cause?.message ? `${own} (${cause.code ?? cause.message})` : own;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function headersOf(rt: Runtime, out: Outgoing): Promise<Record<string, string>> {
  const headers: Record<string, string> = {
    accept: "application/json, application/problem+json",
    authorization: `Bearer ${await rt.token()}`,
  };
  if (out.key !== undefined) headers["idempotency-key"] = out.key;
  if (out.body !== undefined) headers["content-type"] = "application/json";
  return headers;
}

async function exchange(rt: Runtime, out: Outgoing, signal: AbortSignal): Promise<Attempt> {
  const res = await rt.fetch(`${rt.baseUrl}${out.path}`, {
    method: out.method,
    headers: await headersOf(rt, out),
    body: out.body === undefined ? undefined : JSON.stringify(out.body),
    signal,
  });
  const body = parseBody(await res.text());
  const problem = res.status >= 400 ? check(Problem, body) : undefined;
  return {
    kind: "answer",
    status: res.status,
    headers: res.headers,
    body,
    problem: problem?.ok ? problem.value : undefined,
  };
}

function reported(rt: Runtime, out: Outgoing, attempt: Attempt): Attempt {
  const at = { op: out.op, attempt: out.attempt, key: out.key };
  if (attempt.kind === "answer") {
    const paymentId = (attempt.body as { payment_id?: unknown } | undefined)?.payment_id;
    const payment_id = typeof paymentId === "string" ? paymentId : undefined;
    rt.emit({
      type: "answer",
      ...at,
      status: attempt.status,
      problem_type: attempt.problem?.type,
      payment_id,
    });
  } else {
    const message = attempt.kind === "network" ? attempt.message : undefined;
    rt.emit({ type: "no-answer", ...at, why: attempt.kind, message });
  }
  return attempt;
}

/**
 * Sends one attempt within the timeout, answer body included. The timer also races the exchange, so
 * a fetch that ignores its abort signal still cannot hold the call past its timeout.
 */
export async function sendAttempt(rt: Runtime, out: Outgoing): Promise<Attempt> {
  rt.emit({ type: "attempt", op: out.op, attempt: out.attempt, key: out.key, path: out.path });
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new TimedOut("the client timeout passed"));
    }, rt.timeoutMs);
  });
  try {
    return reported(rt, out, await Promise.race([exchange(rt, out, controller.signal), expired]));
  } catch (err) {
    const timedOut = err instanceof TimedOut || controller.signal.aborted;
    return reported(rt, out, timedOut ? { kind: "timeout" } : { kind: "network", message: messageOf(err) });
  } finally {
    clearTimeout(timer);
  }
}
