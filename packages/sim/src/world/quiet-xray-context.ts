import asyncHooks from "node:async_hooks";

let installed = false;

/**
 * Gives X-Ray's context store (cls-hooked, loaded with Powertools' Tracer) a hook that does nothing. Its real hook
 * tracks every promise's destruction, about a tenth of the simulation's time, for a context no one reads here: the
 * Tracer turns itself off outside Lambda (no AWS_EXECUTION_ENV), as it is in the local stack. Must run before the
 * first handler module is imported; every other async hook is left as it is.
 */
export function quietXrayContext(): void {
  if (installed) return;
  installed = true;
  const createHook = asyncHooks.createHook;
  asyncHooks.createHook = ((callbacks: asyncHooks.HookCallbacks) => {
    if (!(new Error().stack ?? "").includes("/cls-hooked/")) return createHook(callbacks);
    const idle: asyncHooks.AsyncHook = { enable: () => idle, disable: () => idle };
    return idle;
  }) as typeof asyncHooks.createHook;
}
