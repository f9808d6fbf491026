import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { handlers } from "../../../../stacks/handlers";
import type { HttpHandler, Route } from "../runtime/http-front";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "../../../..");

/**
 * The contract's API routes, read from the same manifest the SST stacks deploy (stacks/handlers.ts),
 * each on the handler module that Lambda runs in AWS: one list, no second copy.
 */
export function apiRoutes(): Route[] {
  return handlers.flatMap((spec) => {
    if (spec.trigger.kind !== "http") return [];
    const [method = "", path = ""] = spec.trigger.route.split(" ");
    const dot = spec.handler.lastIndexOf(".");
    const file = pathToFileURL(join(repoRoot, `${spec.handler.slice(0, dot)}.ts`)).href;
    const exported = spec.handler.slice(dot + 1);
    const load = async () => (await import(file))[exported] as HttpHandler;
    return [{ method, path, functionName: spec.id, auth: spec.trigger.auth === "jwt", load }];
  });
}
