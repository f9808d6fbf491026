import { register } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../../..");
let registered = false;

/**
 * Makes `importInRegion` give each Region its own instances of the project's modules (clients, caches, tunables),
 * as two Regions' Lambdas have, in one process. Needs Node's module hooks, so it works under tsx/node, not inside
 * vitest's own module runner: tests run the simulation as a child process.
 */
export function registerRegionModules(): void {
  if (registered) return;
  register(new URL("./region-hooks.mjs", import.meta.url), {
    parentURL: import.meta.url,
    data: { root: pathToFileURL(repoRoot).href },
  });
  registered = true;
}

/** Each Region's modules imported so far, by URL: the same namespace `import()` would answer again. */
const imported = new Map<string, Promise<unknown>>();

/**
 * Imports a project module (a path from the repository root) as the given Region's own instance. Once per module and
 * process: another `import()` of it would answer the same namespace, after a round trip through the module hooks
 * that every stack start (a Region's handlers, one by one) would pay again.
 */
export function importInRegion<T = Record<string, unknown>>(region: string, path: string): Promise<T> {
  registerRegionModules();
  const url = `${pathToFileURL(join(repoRoot, path)).href}?eo-sim-region=${encodeURIComponent(region)}`;
  let module = imported.get(url);
  if (!module) {
    module = import(url);
    imported.set(url, module);
    module.catch(() => imported.delete(url));
  }
  return module as Promise<T>;
}
