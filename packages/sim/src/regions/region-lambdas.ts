import type { Context } from "aws-lambda";
import type { RegionLambdas } from "../../../local/src/region/region-lambdas";
import { timedInvocation } from "../../../local/src/runtime/invocation-timing";
import { handlerLinks, type LocalSecrets } from "../../../local/src/stack/handler-env";
import { inRegionEnv } from "./region-env";
import { importInRegion } from "./region-modules";

type Core = typeof import("../../../core/src/index");
// biome-ignore lint/suspicious/noExplicitAny: handlers take and give their own event and result types.
type AnyHandler = (event: any, context: Context) => Promise<any>;

/**
 * A Region's functions in this thread, with that Region's own module instances and environment: what the local
 * runtime's worker thread gives the standby, without a second thread, so one scheduler orders both Regions. The
 * Region's core adopts the world's shared state (one clock offset, one set of armed faults). `preload` names the
 * handlers to load at once.
 */
export async function inThreadRegionLambdas(
  role: string,
  env: Record<string, string | undefined>,
  secrets: LocalSecrets,
  sharedBuffer: SharedArrayBuffer,
  preload: readonly string[] = [],
): Promise<RegionLambdas> {
  const core = await inRegionEnv(env, () => importInRegion<Core>(role, "packages/core/src/index.ts"));
  core.adoptSharedState(sharedBuffer);
  const handlers = new Map<string, Promise<AnyHandler>>();
  const load = (handler: string): Promise<AnyHandler> => {
    let loaded = handlers.get(handler);
    if (!loaded) {
      const dot = handler.lastIndexOf(".");
      loaded = importInRegion(role, `${handler.slice(0, dot)}.ts`).then(
        (m) => m[handler.slice(dot + 1)] as AnyHandler,
      );
      handlers.set(handler, loaded);
    }
    return loaded;
  };
  // Every module is read from disk now, before a run: a cold start's import mid-run would finish at a real moment.
  await inRegionEnv(env, () => Promise.all(preload.map(load)));
  return {
    handlerOf: (spec) => (event, context) =>
      timedInvocation(spec.id, () =>
        inRegionEnv(env, async () => {
          const handler = await load(spec.handler);
          return core.withInvocationLinks(handlerLinks(spec, secrets), () =>
            core.runCrashable(() => handler(event, context)),
          );
        }),
      ),
    stop: async () => undefined,
  };
}
