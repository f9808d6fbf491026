/**
 * Break-on-purpose cases for issue 28: every on-call signal's alarm in both Regions (as the list says, paging
 * on-call, naming its runbook entry), what the issue itself asks an alarm on, and the dashboard of each Region.
 */
import type { Capture } from "./capture";
import { onCallDashboards } from "./dashboard-invariant";
import { type Mutation, resourceOf } from "./mutation";
import { SCENARIOS } from "./scenarios";
import { signalAlarms } from "./signal-alarms-invariant";

const scenario = (name: string) => {
  const found = SCENARIOS.find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};
const HOME = scenario("home-dev");
const MRSC = scenario("mrsc-production");

const ALARM = "aws:cloudwatch/metricAlarm:MetricAlarm";
const alarm = (c: Capture, name: string) => resourceOf(c, ALARM, name);
const dashboard = (c: Capture, prefix: string) =>
  resourceOf(c, "aws:cloudwatch/dashboard:Dashboard", `${prefix}OnCallDashboard`);
const drop = (c: Capture, name: string) => {
  c.resources = c.resources.filter((r) => !(r.type === ALARM && r.name === name));
};
const editBody = (
  c: Capture,
  prefix: string,
  edit: (body: { widgets: Array<Record<string, unknown>> }) => void,
) => {
  const d = dashboard(c, prefix);
  const body = JSON.parse(String(d.inputs.dashboardBody));
  edit(body);
  d.inputs.dashboardBody = JSON.stringify(body);
};

const ALARMS: Mutation[] = [
  {
    what: "the standby Region without the DLQ arrivals alarm",
    invariant: signalAlarms,
    on: HOME,
    breakIt: (c) => drop(c, "StandbyDlqArrivalsAlarm"),
    expectViolation: /standby: no alarm StandbyDlqArrivalsAlarm \(Messages in the events DLQ\)/,
  },
  {
    what: "one function's Lambda Errors alarm missing (the worker crashes unseen)",
    invariant: signalAlarms,
    on: MRSC,
    breakIt: (c) => drop(c, "PrimaryLambdaErrorsNotifyWorkerAlarm"),
    expectViolation: /primary: no Errors alarm on PrimaryNotifyWorkerFunction/,
  },
  {
    what: "the replication alarm at 10 minutes instead of AWS's 180 s",
    invariant: signalAlarms,
    on: HOME,
    breakIt: (c) => {
      alarm(c, "PrimaryReplicationLatencyLedgerAlarm").inputs.threshold = 600_000;
    },
    expectViolation: /primary: PrimaryReplicationLatencyLedgerAlarm has threshold 600000, expected 180000/,
  },
  {
    what: "replication going missing treated as fine (no FILL: the alarm never fires when replication stops)",
    invariant: signalAlarms,
    on: MRSC,
    breakIt: (c) => {
      for (const t of ["Ledger", "Consumer"]) {
        const a = alarm(c, `StandbyReplicationMissing${t}Alarm`);
        for (const q of a.inputs.metricQueries as Array<Record<string, unknown>>)
          if (q.returnData === true) q.expression = "IF(writes > 0, signal)";
      }
    },
    expectViolation: /standby: no alarm on ReplicationLatency going missing/,
  },
  {
    what: "an alarm that pages nobody when it is OK again",
    invariant: signalAlarms,
    on: HOME,
    breakIt: (c) => {
      alarm(c, "PrimaryPaymentAnomaliesAlarm").inputs.okActions = [];
    },
    expectViolation: /primary: PrimaryPaymentAnomaliesAlarm okActions are not the Region's on-call topic/,
  },
  {
    what: "an alarm whose description does not name its runbook entry",
    invariant: signalAlarms,
    on: HOME,
    breakIt: (c) => {
      alarm(c, "StandbyUnknownOldestAgeAlarm").inputs.alarmDescription = "unknown payments";
    },
    expectViolation: /standby: StandbyUnknownOldestAgeAlarm's description does not name its runbook entry/,
  },
  {
    what: "the reconcile's own alarm (built in stacks/reconcile.ts) whose description names no runbook entry",
    invariant: signalAlarms,
    on: HOME,
    breakIt: (c) => {
      alarm(c, "PrimaryReconcileNotRunAlarm").inputs.alarmDescription = "no reconcile";
    },
    expectViolation: /primary: PrimaryReconcileNotRunAlarm's description does not name its runbook entry/,
  },
  {
    what: "the app's alarm on a dimension the handlers do not publish",
    invariant: signalAlarms,
    on: MRSC,
    breakIt: (c) => {
      alarm(c, "PrimaryReplicatedWriteConflictsAlarm").inputs.dimensions = { FunctionName: "x" };
    },
    expectViolation:
      /primary: PrimaryReplicatedWriteConflictsAlarm has dimensions \[FunctionName\], expected \[service\]/,
  },
];

const DASHBOARDS: Mutation[] = [
  {
    what: "the standby Region without its dashboard",
    invariant: onCallDashboards,
    on: HOME,
    breakIt: (c) => {
      c.resources = c.resources.filter((r) => r !== dashboard(c, "Standby"));
    },
    expectViolation: /standby: 0 dashboards in \S+, expected 1/,
  },
  {
    what: "a dashboard body that does not parse",
    invariant: onCallDashboards,
    on: MRSC,
    breakIt: (c) => {
      dashboard(c, "Primary").inputs.dashboardBody = "{ widgets: [";
    },
    expectViolation: /primary: the dashboard's body does not parse/,
  },
  {
    what: "a dashboard that leaves a signal out",
    invariant: onCallDashboards,
    on: HOME,
    breakIt: (c) =>
      editBody(c, "Primary", (b) => {
        b.widgets = b.widgets.filter((w) => !String(obj(w.properties).title).startsWith("EventsQueueAge:"));
      }),
    expectViolation: /primary: the dashboard does not draw EventsQueueAge/,
  },
  {
    what: "a dashboard whose alarm states leave an alarm out",
    invariant: onCallDashboards,
    on: MRSC,
    breakIt: (c) =>
      editBody(c, "Standby", (b) => {
        for (const w of b.widgets.filter((x) => x.type === "alarm")) obj(w.properties).alarms = [];
      }),
    expectViolation: /standby: the dashboard's alarm states leave out Standby\w+Alarm/,
  },
  {
    what: "a dashboard with the PSP on top instead of the buyer's view",
    invariant: onCallDashboards,
    on: HOME,
    breakIt: (c) =>
      editBody(c, "Standby", (b) => {
        b.widgets = b.widgets.slice(1);
        b.widgets.unshift({ type: "text", properties: { markdown: "## The PSP" } });
      }),
    expectViolation: /standby: the dashboard does not start with the buyer's view/,
  },
];

const obj = (x: unknown) => x as Record<string, unknown>;

/** The issue 28 cases, one or more per invariant. */
export const ON_CALL_SIGNAL_MUTATIONS: Mutation[] = [...ALARMS, ...DASHBOARDS];
