import { AsyncLocalStorage } from "node:async_hooks";

type Env = Record<string, string | undefined>;

const scope = new AsyncLocalStorage<Env>();
let installed: NodeJS.ProcessEnv | undefined;

/**
 * Makes `process.env` read the environment of the Region whose code is running: each Region's Lambdas have their
 * own (table names, AWS_REGION, endpoints), and in one process the async context says whose turn it is. Outside a
 * Region's scope it reads the process's own. Returns the undo.
 */
export function installRegionEnv(): () => void {
  if (installed) return () => undefined;
  const base = process.env;
  installed = base;
  const current = (): Env => scope.getStore() ?? base;
  process.env = new Proxy(base, {
    get: (_t, key) => (typeof key === "string" ? current()[key] : undefined),
    set: (_t, key, value) => {
      if (typeof key === "string") current()[key] = String(value);
      return true;
    },
    deleteProperty: (_t, key) => {
      if (typeof key === "string") delete current()[key];
      return true;
    },
    has: (_t, key) => typeof key === "string" && current()[key] !== undefined,
    ownKeys: () => Object.keys(current()).filter((k) => current()[k] !== undefined),
    getOwnPropertyDescriptor: (_t, key) => {
      const value = typeof key === "string" ? current()[key] : undefined;
      return value === undefined
        ? undefined
        : { value, writable: true, enumerable: true, configurable: true };
    },
  });
  return () => {
    process.env = base;
    installed = undefined;
  };
}

/** Runs `fn` (and every continuation it starts) with the given Region's environment. */
export function inRegionEnv<T>(env: Env, fn: () => T): T {
  return scope.run(env, fn);
}
