import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Context } from "aws-lambda";

/** A Lambda handler of any trigger. */
// biome-ignore lint/suspicious/noExplicitAny: handlers take and give their own event and result types.
export type AnyHandler = (event: any, context: Context) => Promise<any>;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../../..");

const loaded = new Map<string, Promise<AnyHandler>>();

/**
 * Loads `path/to/module.exportName` (relative to the repository root) as Lambda does on a cold start, once per
 * process: a later invocation gets the same function without another `import()`, whose round trip through the
 * module hooks would finish at a moment the simulation's scheduler does not decide.
 */
export function loadHandlerModule(handler: string): Promise<AnyHandler> {
  let fn = loaded.get(handler);
  if (!fn) {
    fn = importHandler(handler);
    loaded.set(handler, fn);
    fn.catch(() => loaded.delete(handler));
  }
  return fn;
}

async function importHandler(handler: string): Promise<AnyHandler> {
  const dot = handler.lastIndexOf(".");
  const file = pathToFileURL(join(repoRoot, `${handler.slice(0, dot)}.ts`)).href;
  const fn = (await import(file))[handler.slice(dot + 1)];
  if (typeof fn !== "function") throw new Error(`${handler} is not a function`);
  return fn as AnyHandler;
}
