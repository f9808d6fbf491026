import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Context } from "aws-lambda";

/** A Lambda handler of any trigger. */
// biome-ignore lint/suspicious/noExplicitAny: handlers take and give their own event and result types.
export type AnyHandler = (event: any, context: Context) => Promise<any>;

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../../..");

/** Loads `path/to/module.exportName` (relative to the repository root) as Lambda does on a cold start. */
export async function loadHandlerModule(handler: string): Promise<AnyHandler> {
  const dot = handler.lastIndexOf(".");
  const file = pathToFileURL(join(repoRoot, `${handler.slice(0, dot)}.ts`)).href;
  const fn = (await import(file))[handler.slice(dot + 1)];
  if (typeof fn !== "function") throw new Error(`${handler} is not a function`);
  return fn as AnyHandler;
}
