import { Worker } from "node:worker_threads";
import { runCrashable, sharedState } from "@eo/core";
import type { Context } from "aws-lambda";
import type { InvokeReply, InvokeRequest, LambdaWorkerData } from "./lambda-protocol";
import { type AnyHandler, loadHandlerModule } from "./load-handler";

/** Where one Region's functions run: the handler for a function, given its manifest entry. */
export interface RegionLambdas {
  handlerOf(spec: { id: string; handler: string }): AnyHandler;
  stop(): Promise<void>;
}

/** The primary's functions run in this thread, on this process's environment (tests reach into them). */
export function inProcessLambdas(): RegionLambdas {
  return {
    // A crash point ends the invocation as Lambda's would end: the caller hears a failure, the handler never resumes.
    handlerOf: (spec) => async (event, context) => {
      const handler = await loadHandlerModule(spec.handler);
      return runCrashable(() => handler(event, context));
    },
    stop: async () => undefined,
  };
}

/**
 * The standby's functions run in a worker thread with the standby's environment, as a Lambda in another Region
 * has its own: its own configuration, its own module state (caches, clients), the same code.
 */
export async function workerLambdas(env: Record<string, string>): Promise<RegionLambdas> {
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
  const invoke = (spec: { id: string; handler: string }, event: unknown, context: Context) =>
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
        event,
        timeoutMs: context.getRemainingTimeInMillis(),
      };
      worker.postMessage(m);
    });
  return {
    handlerOf: (spec) => (event, context) => invoke(spec, event, context),
    stop: async () => void (await worker.terminate()),
  };
}
