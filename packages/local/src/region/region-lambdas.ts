import { Worker } from "node:worker_threads";
import { runCrashable, sharedState, withInvocationLinks } from "@eo/core";
import type { Context } from "aws-lambda";
import type { HandlerSpec } from "../../../../stacks/handlers";
import { timedInvocation } from "../runtime/invocation-timing";
import { handlerLinks, type LocalSecrets } from "../stack/handler-env";
import type { InvokeReply, InvokeRequest, LambdaWorkerData } from "./lambda-protocol";
import { type AnyHandler, loadHandlerModule } from "./load-handler";

/** What the runtime needs of a function's manifest entry: its id, its module and what it may reach (its links). */
export type LambdaSpec = Pick<HandlerSpec, "id" | "handler" | "access">;

/** Where one Region's functions run: the handler for a function, given its manifest entry. */
export interface RegionLambdas {
  handlerOf(spec: LambdaSpec): AnyHandler;
  stop(): Promise<void>;
}

/**
 * The primary's functions run in this thread, on this process's environment (tests reach into them). Each invocation
 * carries the links of its function's manifest entry, read when it starts (so a test can change an entry).
 */
export function inProcessLambdas(secrets: LocalSecrets): RegionLambdas {
  return {
    // A crash point ends the invocation as Lambda's would end: the caller hears a failure, the handler never resumes.
    handlerOf: (spec) => async (event, context) => {
      const handler = await loadHandlerModule(spec.handler);
      // Timed after the module is loaded: the handler's run, which Lambda bills, not this process's import.
      return timedInvocation(spec.id, () =>
        withInvocationLinks(handlerLinks(spec, secrets), () => runCrashable(() => handler(event, context))),
      );
    },
    stop: async () => undefined,
  };
}

/**
 * The standby's functions run in a worker thread with the standby's environment, as a Lambda in another Region
 * has its own: its own configuration, its own module state (caches, clients), the same code; each invocation carries
 * the links of its function's manifest entry.
 */
export async function workerLambdas(
  env: Record<string, string>,
  secrets: LocalSecrets,
): Promise<RegionLambdas> {
  const data: LambdaWorkerData = { sharedState: sharedState().buffer };
  const worker = new Worker(new URL("./lambda-worker.mjs", import.meta.url), { env, workerData: data });
  const waiting = new Map<number, (reply: InvokeReply) => void>();
  let next = 0;
  await new Promise<void>((resolve, reject) => {
    worker.once("error", reject);
    worker.once("message", () => resolve());
  });
  worker.on("message", (reply: InvokeReply) => waiting.get(reply.id)?.(reply));
  worker.on("error", (err) => console.error(`[standby lambdas] the worker failed: ${err.message}`));
  const invoke = (spec: LambdaSpec, event: unknown, context: Context) =>
    new Promise<unknown>((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (reply) => {
        waiting.delete(id);
        if (reply.ok) resolve(reply.result);
        else reject(Object.assign(new Error(reply.error.message), { name: reply.error.name }));
      });
      const m: InvokeRequest = {
        id,
        functionName: context.functionName,
        handler: spec.handler,
        links: handlerLinks(spec, secrets),
        event,
        timeoutMs: context.getRemainingTimeInMillis(),
      };
      worker.postMessage(m);
    });
  return {
    // Timed from here: the round trip to the worker thread and its first import of a module are included.
    handlerOf: (spec) => (event, context) => timedInvocation(spec.id, () => invoke(spec, event, context)),
    stop: async () => void (await worker.terminate()),
  };
}
