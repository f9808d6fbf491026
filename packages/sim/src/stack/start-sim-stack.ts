import { handlers } from "../../../../stacks/handlers";
import { sharedState } from "../../../core/src/shared-state/shared-state";
import { useIdleWait } from "../../../local/src/pollers/timing";
import { loadHandlerModule } from "../../../local/src/region/load-handler";
import { type LocalStack, type StackOptions, startLocalStack } from "../../../local/src/stack/start-stack";
import { installRegionEnv } from "../regions/region-env";
import { inThreadRegionLambdas } from "../regions/region-lambdas";
import { installInProcessNet } from "../transport/in-process-net";
import type { SimClock } from "../world/clock";
import { quietXrayContext } from "../world/quiet-xray-context";
import { installSyncSubtleHmac } from "../world/sync-subtle-hmac";
import { type SimModels, startSimEmulators } from "./sim-emulators";

const HANDLER_PATHS = handlers.map((h) => h.handler);

/**
 * Loads every module a run imports lazily (each handler, the scheduled resolver) before the run: an import is read
 * from disk off the world's clock, so one made mid-run would finish at a moment no seed decides.
 */
async function warmUp(): Promise<void> {
  quietXrayContext();
  for (const handler of HANDLER_PATHS) await loadHandlerModule(handler);
  await import("@eo/functions/cron/resolver");
}

/** The local stack running on the models: both Regions, the PSP, the push provider, all in this process. */
export interface SimStack extends LocalStack {
  models: SimModels;
}

/**
 * Starts the whole local stack (the same code `npm start` runs: the runtime, both Regions' handlers, the fake PSP,
 * the replicator) with the models standing in for DynamoDB, SQS and SES, loopback HTTP within the process and the
 * standby's functions in this thread: nothing waits on the kernel, so a world's scheduler decides every step.
 */
export async function startSimStack(clock: SimClock, opts: StackOptions = {}): Promise<SimStack> {
  await warmUp();
  const undoNet = installInProcessNet();
  const undoHmac = installSyncSubtleHmac();
  const undoEnv = installRegionEnv();
  let models: SimModels | undefined;
  const stack = await startLocalStack({
    ...opts,
    startEmulators: async () => {
      const e = await startSimEmulators(clock);
      models = e.models;
      // SIM_POLL_IDLE_STREAMS=1 polls idle streams as the emulator stack does (to compare the two ways).
      if (process.env.SIM_POLL_IDLE_STREAMS !== "1") useIdleWait(e.models.dynamodb.idleWait);
      return e;
    },
    standbyLambdas: (env, secrets) =>
      inThreadRegionLambdas("standby", env, secrets, sharedState().buffer, HANDLER_PATHS),
  });
  if (!models) throw new Error("the stack started without the simulation's models");
  const stop = stack.stop;
  return {
    ...stack,
    models,
    stop: async () => {
      await stop();
      undoEnv();
      useIdleWait(undefined);
      undoNet();
      undoHmac();
    },
  };
}
