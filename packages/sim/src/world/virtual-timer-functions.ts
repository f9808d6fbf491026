import { AsyncLocalStorage } from "node:async_hooks";
import { promisify } from "node:util";
import type { Scheduler, VirtualHandle } from "./scheduler.js";
import { WorldUnsupported } from "./world-errors.js";

type Callback = (...args: unknown[]) => void;

const direct = <R>(fn: (...args: unknown[]) => R, ...args: unknown[]): R => fn(...args);

/** The functions that replace Node's timer globals while a world is installed. */
export interface VirtualTimerFunctions {
  setTimeout(fn: Callback, ms?: number, ...args: unknown[]): VirtualHandle;
  setInterval(fn: Callback, ms?: number, ...args: unknown[]): VirtualHandle;
  setImmediate(fn: Callback, ...args: unknown[]): VirtualHandle;
  clearTimeout(h: unknown): void;
  clearInterval(h: unknown): void;
  clearImmediate(h: unknown): void;
}

/** The real clear functions, for handles made before the world was installed. */
export interface RealClears {
  clearTimeout(h: unknown): void;
  clearInterval(h: unknown): void;
  clearImmediate(h: unknown): void;
}

function callable(fn: unknown, name: string): Callback {
  if (typeof fn !== "function") {
    throw Object.assign(new TypeError(`The "callback" argument of ${name} must be of type function`), {
      code: "ERR_INVALID_ARG_TYPE",
    });
  }
  return fn as Callback;
}

/**
 * Builds the virtual timer globals over a scheduler. A throwing callback goes to `uncaught` (Node would crash the
 * process); a handle the world did not make is passed to the real clear function.
 */
export function virtualTimerFunctions(
  s: Scheduler,
  real: RealClears,
  uncaught: (err: unknown) => void,
  asyncContext: boolean,
): VirtualTimerFunctions {
  // Node runs a timer's callback in the async context that scheduled it; AsyncLocalStorage stores (request
  // views, claim contexts, a Region's environment) depend on it, so the snapshot is taken when scheduling.
  const guard = (fn: Callback, args: unknown[]) => {
    const inContext = asyncContext ? AsyncLocalStorage.snapshot() : direct;
    return () => {
      try {
        inContext(fn, ...args);
      } catch (err) {
        uncaught(err);
      }
    };
  };
  const fns: VirtualTimerFunctions = {
    setTimeout: (fn, ms, ...args) => s.schedule("timeout", guard(callable(fn, "setTimeout"), args), ms ?? 1),
    setInterval: (fn, ms, ...args) =>
      s.schedule("interval", guard(callable(fn, "setInterval"), args), ms ?? 1),
    setImmediate: (fn, ...args) => s.schedule("immediate", guard(callable(fn, "setImmediate"), args), 0),
    clearTimeout: (h) => void (h == null || s.cancel(h) || real.clearTimeout(h)),
    clearInterval: (h) => void (h == null || s.cancel(h) || real.clearInterval(h)),
    clearImmediate: (h) => void (h == null || s.cancel(h) || real.clearImmediate(h)),
  };
  const promised = virtualTimerPromises(fns);
  Object.assign(fns.setTimeout, { [promisify.custom]: promised.setTimeout });
  Object.assign(fns.setImmediate, { [promisify.custom]: promised.setImmediate });
  return fns;
}

interface PromiseOptions {
  signal?: AbortSignal;
  ref?: boolean;
}

function abortError(signal: AbortSignal): Error {
  return Object.assign(new Error("The operation was aborted"), {
    name: "AbortError",
    code: "ABORT_ERR",
    cause: signal.reason,
  });
}

function promiseTimer<T>(
  start: (done: () => void) => VirtualHandle,
  clear: (h: VirtualHandle) => void,
  value: T,
  options: PromiseOptions | undefined,
): Promise<T> {
  const signal = options?.signal;
  if (signal?.aborted) return Promise.reject(abortError(signal));
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => {
      clear(handle);
      reject(abortError(signal as AbortSignal));
    };
    const handle = start(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(value);
    });
    if (options?.ref === false) handle.unref();
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** The `node:timers/promises` functions over virtual timers (`setInterval`'s iterator is refused loudly). */
export function virtualTimerPromises(fns: VirtualTimerFunctions) {
  const setTimeout = <T = void>(ms?: number, value?: T, options?: PromiseOptions): Promise<T> =>
    promiseTimer((done) => fns.setTimeout(done, ms), fns.clearTimeout, value as T, options);
  const setImmediate = <T = void>(value?: T, options?: PromiseOptions): Promise<T> =>
    promiseTimer((done) => fns.setImmediate(done), fns.clearImmediate, value as T, options);
  const setInterval = (): never => {
    throw new WorldUnsupported(
      "setInterval from node:timers/promises (an async iterator); use a loop over setTimeout",
    );
  };
  const scheduler = {
    wait: (ms: number, options?: PromiseOptions) => setTimeout(ms, undefined, options),
    yield: () => setImmediate(),
  };
  return { setTimeout, setImmediate, setInterval, scheduler };
}

/** `AbortSignal.timeout` on virtual time: aborts with a TimeoutError after `ms`, unref'd like Node's. */
export function virtualAbortTimeout(fns: VirtualTimerFunctions): (ms: number) => AbortSignal {
  return (ms) => {
    const controller = new AbortController();
    fns
      .setTimeout(
        () => controller.abort(new DOMException("The operation was aborted due to timeout", "TimeoutError")),
        ms,
      )
      .unref();
    return controller.signal;
  };
}
