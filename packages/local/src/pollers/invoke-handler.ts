import type { Context } from "aws-lambda";
import { asInvocation } from "../runtime/current-invocation";
import { lambdaContext } from "../runtime/lambda-context";

/** A handler as an event source mapping sees it: an event and a context in, a promise out. */
export type BatchHandler<E, R> = (event: E, context: Context) => Promise<R>;

/** What one invocation came to: the handler's result, or the error Lambda would have recorded. */
export type Invocation<R> = { ok: true; result: R } | { ok: false; error: string };

/** Invokes `handler` once with a fresh Lambda context, turning a throw or an overrun of `timeoutMs` into a failure. */
export async function invokeHandler<E, R>(
  handler: BatchHandler<E, R>,
  event: E,
  functionName: string,
  timeoutMs: number,
): Promise<Invocation<R>> {
  // An overrunning handler cannot be cancelled; it keeps running, as it would in a sandbox Lambda froze.
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<Invocation<R>>((resolve) => {
    const seconds = (timeoutMs / 1000).toFixed(2);
    timer = setTimeout(
      () => resolve({ ok: false, error: `Task timed out after ${seconds} seconds` }),
      timeoutMs,
    );
  });
  // Promise.resolve().then(...) also catches a handler that throws before returning its promise.
  const ran = Promise.resolve()
    .then(() =>
      asInvocation({ functionName, source: "event" }, () =>
        handler(event, lambdaContext(functionName, timeoutMs)),
      ),
    )
    .then(
      (result): Invocation<R> => ({ ok: true, result }),
      (err: unknown): Invocation<R> => ({ ok: false, error: errorText(err) }),
    );
  try {
    return await Promise.race([ran, timedOut]);
  } finally {
    clearTimeout(timer);
  }
}

/** The text of a thrown value, as Lambda would report it in an error. */
export function errorText(err: unknown): string {
  if (err instanceof Error) return `${err.name}: ${err.message}`;
  return String(err);
}

/**
 * The item identifiers a handler reported in `batchItemFailures`, or undefined for a full success, with "" for an
 * empty or non-string identifier so that the caller fails the whole batch as Lambda does.
 */
export function reportedFailures(result: unknown): string[] | undefined {
  if (typeof result !== "object" || result === null || !("batchItemFailures" in result)) return undefined;
  const failures = (result as { batchItemFailures: unknown }).batchItemFailures;
  if (!Array.isArray(failures) || failures.length === 0) return undefined;
  return failures.map((f) => {
    const id = (f as { itemIdentifier?: unknown } | null)?.itemIdentifier;
    return typeof id === "string" ? id : "";
  });
}
