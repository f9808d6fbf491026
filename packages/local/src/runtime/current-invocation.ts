import { AsyncLocalStorage } from "node:async_hooks";

/** What started the invocation a piece of work belongs to: an API request, or an event source or schedule. */
export interface InvocationInfo {
  functionName: string;
  source: "api" | "event";
}

// In AWS each invocation has a sandbox of its own; here they share a process, so a meter that wants to know which
// invocation sent a request (bench:cost's "the API request" against what follows it) asks this store.
const invocations = new AsyncLocalStorage<InvocationInfo>();

/** Runs one handler invocation with its info in scope for everything it awaits. */
export function asInvocation<T>(info: InvocationInfo, run: () => Promise<T>): Promise<T> {
  return invocations.run(info, run);
}

/** The invocation the caller runs in, or undefined outside any (a test, a script, the local runtime itself). */
export function currentInvocation(): InvocationInfo | undefined {
  return invocations.getStore();
}
