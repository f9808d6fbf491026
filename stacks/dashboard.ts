import type { Watched } from "./alarms";
import { dashboardBody } from "./dashboard-body";
import { handlers } from "./handlers";
import { ON_CALL_SIGNALS } from "./on-call-signals";
import type { RegionContext } from "./region-context";

/**
 * The Region's CloudWatch dashboard, its body generated from the same list as the alarms (stacks/on-call-signals.ts):
 * the first place to look at 3 a.m. ("is it us, the PSP, or a Region?"). Each Region has its own, each showing both
 * Regions' view of the authority, so that either one answers while the other Region is down.
 */
export function createDashboard(
  ctx: RegionContext,
  watched: Watched,
  alarms: aws.cloudwatch.MetricAlarm[],
): aws.cloudwatch.Dashboard {
  const ids = Object.keys(watched.functions);
  const signals = ON_CALL_SIGNALS.filter((s) => !s.claimMode || s.claimMode === ctx.config.claimMode);
  const body = $util
    .all([
      watched.api.nodes.api.id,
      ctx.queues.events.nodes.queue.name,
      ctx.queues.eventsDlq.nodes.queue.name,
      ctx.queues.relayFailures.nodes.queue.name,
      ctx.queues.streamJobFailures.nodes.queue.name,
      $util.all(Object.values(watched.functions).map((f) => f.name)),
      $util.all([ctx.tables.ledger.name, ctx.tables.consumer.name]),
      $util.all(alarms.map((a) => a.arn)),
    ])
    .apply(
      ([apiId, eventsQueue, eventsDlq, relayFailures, streamJobFailures, fnNames, globalTables, alarmArns]) =>
        dashboardBody({
          role: ctx.role,
          region: ctx.config.regions[ctx.role],
          otherRegion: ctx.config.regions[ctx.role === "primary" ? "standby" : "primary"],
          apiId,
          functions: Object.fromEntries(ids.map((id, i) => [id, fnNames[i] ?? ""])),
          eventsQueue,
          eventsDlq,
          streamConsumers: handlers.filter((h) => h.trigger.kind === "ledger-stream").map((h) => h.id),
          relayFailures,
          streamJobFailures,
          globalTables,
          alarmArns,
          signals,
        }),
    );
  return new aws.cloudwatch.Dashboard(
    `${ctx.prefix}OnCallDashboard`,
    { dashboardName: `${$app.name}-${$app.stage}-${ctx.role}-on-call`, dashboardBody: body },
    { provider: ctx.provider },
  );
}
