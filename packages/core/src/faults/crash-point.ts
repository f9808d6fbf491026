import { AsyncLocalStorage } from "node:async_hooks";
import { CRASH_POINTS, type CrashPoint } from "./crash-points";
import { peekFault, takeFault } from "./faults";

/** What a local runtime learns when an invocation it runs reaches an armed crash point. */
export class InvocationCrashed extends Error {
  constructor(readonly point: CrashPoint) {
    super(`the invocation died at ${point} (injected crash_at)`);
    this.name = "InvocationCrashed";
  }
}

// Which invocation a crash point belongs to: the runtime runs each handler inside its own scope.
const invocation = new AsyncLocalStorage<(point: CrashPoint) => void>();

/**
 * Runs one invocation so that a crash point inside it ends it as Lambda's would end: the runtime hears
 * InvocationCrashed at once, and the handler's own code never resumes (no catch or finally block runs).
 */
export function runCrashable<T>(run: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const crashed = (point: CrashPoint) => reject(new InvocationCrashed(point));
    invocation.run(crashed, () => {
      Promise.resolve().then(run).then(resolve, reject);
    });
  });
}

/**
 * Dies here when `crash_at` is armed with this point (consuming one occurrence); in AWS nothing arms faults, so it
 * returns at once. Outside a crashable invocation (a test calling a domain function) it throws InvocationCrashed.
 */
export async function crashPoint(point: CrashPoint): Promise<void> {
  const index = CRASH_POINTS.indexOf(point);
  if (peekFault("crash_at") !== index || takeFault("crash_at") === undefined) return;
  const die = invocation.getStore();
  if (!die) throw new InvocationCrashed(point);
  die(point);
  // The rest of this invocation is never run: its promise stays pending and is collected with it.
  await new Promise<never>(() => undefined);
}
