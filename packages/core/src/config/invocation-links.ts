import { AsyncLocalStorage } from "node:async_hooks";

/** A function's SST links by name, each with its properties (a secret's is `value`), as SST's `Resource` holds them. */
export type LinkedResources = Record<string, { value?: unknown } | undefined>;

// The links of the invocation under way, when a local runtime runs it: in AWS, SST seals them into each function's
// bundle, so two functions never share them; locally, one process runs many functions, so each invocation carries its own.
const current = new AsyncLocalStorage<LinkedResources>();

/** Runs one invocation with the links its function has (the local runtime, from the function's entry in the manifest). */
export function withInvocationLinks<T>(links: LinkedResources, run: () => T): T {
  return current.run(links, run);
}

/** The links of the local invocation under way, or undefined outside one (in AWS, in a script, in a test). */
export function invocationLinks(): LinkedResources | undefined {
  return current.getStore();
}
