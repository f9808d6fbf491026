import { createAlarms } from "./alarms";
import { createApi } from "./api";
import type { InfraConfig, RegionRole } from "./config";
import type { ControlAuthority } from "./control-authority";
import { createDashboard } from "./dashboard";
import { createFunctions, type RegionFunctions } from "./functions";
import { createOnCall, type OnCall } from "./on-call";
import { createPushEmail } from "./push-email";
import type { Queues, RegionQueues } from "./queues";
import { createReconcile } from "./reconcile";
import type { RegionProviders } from "./region-base";
import type { RegionContext } from "./region-context";
import { createScheduledInvokeConfigs } from "./scheduled-invoke-config";
import type { Secrets } from "./secrets";
import type { Tables } from "./tables";
import { createWorkers } from "./workers";

/** One Region's deployed parts. */
export interface RegionStack {
  api: sst.aws.ApiGatewayV2;
  functions: RegionFunctions;
  queues: RegionQueues;
  /** The Region's on-call topic: every alarm's action; link it to whatever else should page. */
  onCall: OnCall;
}

/**
 * Composes one Region: push and email, the functions, the API, the background wiring, the on-call topic and the
 * reconcile with its alarms, on its own queues and the other Region's (both created before either Region, so that
 * each can name the other's).
 */
export function createRegion(
  role: RegionRole,
  shared: {
    config: InfraConfig;
    providers: RegionProviders;
    secrets: Secrets;
    tables: Tables;
    authority: ControlAuthority;
    queues: Queues;
  },
): RegionStack {
  const base = {
    role,
    prefix: role === "primary" ? ("Primary" as const) : ("Standby" as const),
    provider: shared.providers[role],
    config: shared.config,
    secrets: shared.secrets,
    tables: shared.tables.byRole[role],
    control: shared.authority.byRole[role],
  };
  const queues = shared.queues.byRole[role];
  const peerQueues = shared.queues.byRole[role === "primary" ? "standby" : "primary"];
  const pushEmail = createPushEmail(base);
  const ctx: RegionContext = { ...base, queues, peerQueues, pushEmail };
  const functions = createFunctions(ctx);
  const api = createApi(ctx, functions);
  createWorkers(ctx, functions);
  // No Lambda retries of a scheduled pass: the next pass runs at its schedule (stacks/scheduled-invoke-config.ts).
  createScheduledInvokeConfigs(ctx, functions);
  const onCall = createOnCall(ctx);
  const reconcileAlarms = createReconcile(ctx, functions, onCall);
  // Every on-call signal's alarm (stacks/on-call-signals.ts) and the dashboard drawn from the same list.
  const alarms = [...createAlarms(ctx, { functions, api }, onCall), ...reconcileAlarms];
  createDashboard(ctx, { functions, api }, alarms);
  return { api, functions, queues, onCall };
}
