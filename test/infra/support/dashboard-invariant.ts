/**
 * One CloudWatch dashboard per Region, in that Region: its body parses, the buyer's view comes first, it draws
 * every on-call signal (by id and by metric) and the states of every alarm of its Region. Held to the issue.
 */
import { ON_CALL_SIGNALS } from "../../../stacks/on-call-signals";
import type { Invariant, View } from "./invariants";
import { obj, str } from "./json";

const ROLES = ["primary", "standby"] as const;
type Role = (typeof ROLES)[number];
const DASHBOARD = "aws:cloudwatch/dashboard:Dashboard";
const ALARM = "aws:cloudwatch/metricAlarm:MetricAlarm";

interface Widget {
  type?: string;
  properties?: { title?: string; markdown?: string; metrics?: unknown[]; alarms?: string[] };
}

function parsed(text: string | undefined): Widget[] | string {
  try {
    const widgets = obj(JSON.parse(text ?? "")).widgets;
    return Array.isArray(widgets) && widgets.length > 0 ? (widgets as Widget[]) : "has no widgets";
  } catch (e) {
    return `does not parse (${(e as Error).message})`;
  }
}

function bodyProblems(v: View, role: Role, widgets: Widget[]): string[] {
  const out: string[] = [];
  const first = widgets[0]?.properties?.markdown ?? "";
  if (!/buyer/i.test(first)) out.push(`${role}: the dashboard does not start with the buyer's view`);
  const signals = ON_CALL_SIGNALS.filter((s) => !s.claimMode || s.claimMode === v.expected.claimMode);
  for (const s of signals) {
    const drawn = widgets.find((w) => w.properties?.title?.startsWith(`${s.id}:`));
    if (!drawn) out.push(`${role}: the dashboard does not draw ${s.id}`);
    else if (!JSON.stringify(drawn.properties?.metrics ?? []).includes(`"${s.name}"`))
      out.push(`${role}: the dashboard's ${s.id} widget does not draw ${s.namespace} ${s.name}`);
  }
  const listed = new Set(widgets.flatMap((w) => (w.type === "alarm" ? (w.properties?.alarms ?? []) : [])));
  for (const a of v.ofType(ALARM).filter((x) => v.regionOf(x) === v.region(role)))
    if (!listed.has(String(a.state.arn)))
      out.push(`${role}: the dashboard's alarm states leave out ${a.name}`);
  return out;
}

/** One dashboard per Region, drawing every signal and every alarm's state, the buyer's view on top. */
export const onCallDashboards: Invariant = {
  name: "one on-call dashboard per Region draws every signal and every alarm's state, the buyer's view first",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const found = v.ofType(DASHBOARD).filter((d) => v.regionOf(d) === v.region(role));
      if (found.length !== 1) {
        out.push(`${role}: ${found.length} dashboards in ${v.region(role)}, expected 1`);
        continue;
      }
      const widgets = parsed(str(found[0]?.inputs.dashboardBody));
      if (typeof widgets === "string") out.push(`${role}: the dashboard's body ${widgets}`);
      else out.push(...bodyProblems(v, role, widgets));
    }
    return out;
  },
};
