/**
 * The body of a Region's CloudWatch dashboard, built from the on-call signals' list and the Region's resolved
 * resource names: the buyer's view on top, then the PSP, the async path, the two Regions and the alarms' states.
 * Plain data in, JSON out (no Pulumi here), so that the offline checks build and read it the same way.
 */
import { APP_DIMENSIONS, APP_METRICS, APP_NAMESPACE, type OnCallSignal } from "./on-call-signals";

/** The Region's names a dashboard points at, resolved. */
export interface DashboardInput {
  role: "primary" | "standby";
  region: string;
  otherRegion: string;
  apiId: string;
  /** Function id (e.g. CreatePayment) to its deployed name. */
  functions: Record<string, string>;
  eventsQueue: string;
  eventsDlq: string;
  /** The ledger stream's consumers (function ids), and the failure queue of each (their names). */
  streamConsumers: string[];
  relayFailures: string;
  streamJobFailures: string;
  /** The global tables replicated to the other Region. */
  globalTables: string[];
  alarmArns: string[];
  signals: readonly OnCallSignal[];
}

type Section = "buyer" | "psp" | "async" | "regions";
const SECTIONS: Array<[Section, string]> = [
  ["buyer", "The buyer's view: answers, latency, the unknown backlog"],
  ["psp", "The PSP: calls by origin and outcome, 429s, our budget's refusals"],
  ["async", "The async path: relay, events queue, DLQ, worker, notifications, money checks"],
  ["regions", "The two Regions: the authority as each sees it, replication, write conflicts"],
];
/** Where each signal is drawn; a signal with no place fails the build of the body (and the offline check). */
const PLACE: Record<string, Section> = {
  Api5xxRate: "buyer",
  UnknownOldestAge: "buyer",
  PspBudgetRefused: "psp",
  PspThrottled: "psp",
  PspConfigErrors: "psp",
  ResolverPoisonRows: "buyer",
  PaymentAnomalies: "async",
  RefundFailedLater: "async",
  ReconcileDiscrepancies: "async",
  ReconcileNotRun: "async",
  DlqArrivals: "async",
  EventsDlqDepth: "async",
  NotificationsFailedForGood: "async",
  RelayFailures: "async",
  WorkerFailures: "async",
  StreamIteratorAge: "async",
  RelayFailuresQueued: "async",
  StreamJobBatchesSkipped: "async",
  EventsQueueAge: "async",
  LambdaErrors: "async",
  LambdaThrottles: "async",
  AuthorityReadFailures: "regions",
  ReplicationLatency: "regions",
  ReplicationMissing: "regions",
  ReplicatedWriteConflicts: "regions",
};

type Widget = { type: string; properties: Record<string, unknown>; width: number; height: number };
type MetricRow = Array<string | Record<string, unknown>>;

const APP_DIMS = Object.entries(APP_DIMENSIONS).flat();

function graph(
  title: string,
  metrics: unknown[],
  region: string,
  extra: Record<string, unknown> = {},
): Widget {
  return {
    type: "metric",
    width: 8,
    height: 6,
    properties: { title, view: "timeSeries", region, metrics, ...extra },
  };
}

/** A metric row of a search expression: every series of a metric whatever its dimensions' values. */
const search = (id: string, query: string, stat: string, label: string) => [
  [{ expression: `SEARCH('${query}', '${stat}', 60)`, id, label }],
];

/** The concrete metric rows of a signal in this Region (and, in the Regions' section, in the other Region too). */
function rowsOf(s: OnCallSignal, input: DashboardInput): MetricRow[] {
  const opts = (region: string, label: string) => ({ stat: s.statistic, period: s.periodS, region, label });
  const here = input.region;
  const other = input.otherRegion;
  switch (s.target) {
    case "app":
      return PLACE[s.id] === "regions"
        ? [
            [s.namespace, s.name, ...APP_DIMS, opts(here, `${input.role} (${here})`)],
            [s.namespace, s.name, ...APP_DIMS, opts(other, `the other Region (${other})`)],
          ]
        : [[s.namespace, s.name, ...APP_DIMS, opts(here, s.name)]];
    case "each-function":
      return Object.entries(input.functions).map(([id, name]) => [
        s.namespace,
        s.name,
        "FunctionName",
        name,
        opts(here, id),
      ]);
    case "stream-consumers":
      return input.streamConsumers.map((id) => [
        s.namespace,
        s.name,
        "FunctionName",
        input.functions[id] ?? "",
        opts(here, id),
      ]);
    case "relay-failures":
      return [[s.namespace, s.name, "QueueName", input.relayFailures, opts(here, "relay failures")]];
    case "stream-job-failures":
      return [[s.namespace, s.name, "QueueName", input.streamJobFailures, opts(here, "stream job failures")]];
    case "api":
      return [[s.namespace, s.name, "ApiId", input.apiId, opts(here, "5xx rate")]];
    case "events-queue":
      return [[s.namespace, s.name, "QueueName", input.eventsQueue, opts(here, "events queue")]];
    case "events-dlq":
      return [[s.namespace, s.name, "QueueName", input.eventsDlq, opts(here, "events DLQ")]];
    case "global-tables":
      return input.globalTables.flatMap((t) => [
        [s.namespace, s.name, "TableName", t, "ReceivingRegion", other, opts(here, `${t} to ${other}`)],
        [s.namespace, s.name, "TableName", t, "ReceivingRegion", here, opts(other, `${t} to ${here}`)],
      ]);
  }
}

/** One graph per signal, its alarm's threshold drawn across it, titled with its id and its runbook entry. */
function signalWidget(s: OnCallSignal, input: DashboardInput): Widget {
  return graph(`${s.id}: ${s.meaning}`, rowsOf(s, input), input.region, {
    annotations: { horizontal: [{ value: s.threshold, label: `alarm (runbook: ${s.runbook})` }] },
  });
}

/** The widgets drawn before the signals of a section: what no alarm reads but the first question needs. */
function leadWidgets(section: Section, input: DashboardInput): Widget[] {
  const r = input.region;
  const ns = APP_NAMESPACE;
  if (section === "buyer")
    return [
      graph(
        "Payment answers by status and problem kind",
        search(
          "answers",
          `{${ns},service,Status,Kind} MetricName="${APP_METRICS.PaymentAnswers.name}"`,
          "Sum",
          "",
        ),
        r,
      ),
      graph(
        "API latency p50 / p99 (ms)",
        ["p50", "p99"].map((stat) => [
          "AWS/ApiGateway",
          "Latency",
          "ApiId",
          input.apiId,
          { stat, label: stat },
        ]),
        r,
      ),
      graph(
        "Unknown backlog (payments and refunds the resolver has not settled)",
        [[ns, APP_METRICS.UnknownBacklog.name, ...APP_DIMS, { stat: "Maximum", label: "backlog" }]],
        r,
      ),
    ];
  if (section === "psp")
    return [
      graph(
        "PSP calls by origin and outcome",
        search("psp", `{${ns},service,Origin,Outcome} MetricName="${APP_METRICS.PspCalls.name}"`, "Sum", ""),
        r,
      ),
    ];
  if (section === "regions")
    return [APP_METRICS.RegionActive.name, APP_METRICS.AuthorityEpoch.name].map((name) =>
      graph(
        `${name} as each Region sees it`,
        [input.region, input.otherRegion].map((region) => [
          ns,
          name,
          ...APP_DIMS,
          { stat: "Maximum", region, label: region },
        ]),
        r,
      ),
    );
  return [];
}

function header(text: string): Widget {
  return { type: "text", width: 24, height: 1, properties: { markdown: `## ${text}` } };
}

/** Lays the widgets out in rows of 24 units, in order (CloudWatch needs x and y for a stable layout). */
function laidOut(widgets: Widget[]): Array<Widget & { x: number; y: number }> {
  let x = 0;
  let y = 0;
  let rowHeight = 0;
  return widgets.map((w) => {
    if (x + w.width > 24) {
      x = 0;
      y += rowHeight;
      rowHeight = 0;
    }
    const placed = { ...w, x, y };
    x += w.width;
    rowHeight = Math.max(rowHeight, w.height);
    return placed;
  });
}

/** The dashboard body (JSON text) of one Region. */
export function dashboardBody(input: DashboardInput): string {
  for (const s of input.signals)
    if (!PLACE[s.id]) throw new Error(`the dashboard has no place for the on-call signal ${s.id}`);
  const widgets: Widget[] = [];
  for (const [section, title] of SECTIONS) {
    widgets.push(header(title), ...leadWidgets(section, input));
    for (const s of input.signals.filter((x) => PLACE[x.id] === section))
      widgets.push(signalWidget(s, input));
  }
  widgets.push(header("The alarms' states (each names its runbook entry)"), {
    type: "alarm",
    width: 24,
    height: 8,
    properties: { title: `${input.role} alarms`, alarms: input.alarmArns, sortBy: "stateUpdatedTimestamp" },
  });
  return JSON.stringify({ widgets: laidOut(widgets) });
}
