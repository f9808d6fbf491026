import { describe, expect, it } from "vitest";
import { type DashboardInput, dashboardBody } from "../../stacks/dashboard-body";
import { ON_CALL_SIGNALS } from "../../stacks/on-call-signals";

const input: DashboardInput = {
  role: "primary",
  region: "eu-west-1",
  otherRegion: "eu-central-1",
  apiId: "api123",
  functions: { CreatePayment: "create-fn", LedgerStream: "ledger-stream-fn" },
  eventsQueue: "events.fifo",
  eventsDlq: "events-dlq.fifo",
  streamConsumers: ["LedgerStream"],
  relayFailures: "relay-failures",
  streamJobFailures: "stream-job-failures",
  globalTables: ["ledger", "consumer"],
  alarmArns: ["arn:aws:cloudwatch:eu-west-1:1:alarm:a"],
  signals: ON_CALL_SIGNALS,
};

type Widget = { type: string; x: number; y: number; width: number; properties: Record<string, unknown> };
const widgetsOf = (body: string) => (JSON.parse(body) as { widgets: Widget[] }).widgets;

describe("the on-call dashboard's body", () => {
  it("parses, starts with the buyer's view and draws every signal with its alarm's threshold", () => {
    // act
    const widgets = widgetsOf(dashboardBody(input));
    // assess
    expect(String(widgets[0]?.properties.markdown)).toMatch(/buyer/);
    for (const s of ON_CALL_SIGNALS) {
      const w = widgets.find((x) => String(x.properties.title).startsWith(`${s.id}:`));
      expect(w, s.id).toBeDefined();
      expect(JSON.stringify(w?.properties.metrics)).toContain(`"${s.name}"`);
      expect(JSON.stringify(w?.properties.annotations)).toContain(`"value":${s.threshold}`);
    }
    for (const w of widgets) expect(w.x + w.width).toBeLessThanOrEqual(24);
  });

  it("draws each Region's view of the authority and both directions of replication", () => {
    // act
    const text = dashboardBody(input);
    // assess
    expect(text).toContain('"region":"eu-central-1","label":"eu-central-1"');
    expect(text).toContain('"ReceivingRegion","eu-central-1"');
    expect(text).toContain('"ReceivingRegion","eu-west-1"');
    expect(text).toContain("arn:aws:cloudwatch:eu-west-1:1:alarm:a");
  });

  it("writes every metric of a graph as a row (an array), search expressions included", () => {
    // act
    const widgets = widgetsOf(dashboardBody(input)).filter((w) => w.type === "metric");
    // assess
    for (const w of widgets)
      for (const row of w.properties.metrics as unknown[])
        expect(Array.isArray(row), String(w.properties.title)).toBe(true);
  });

  it("refuses a signal it has no place for (a new signal must be placed, not left out)", () => {
    // prepare
    const stray = { ...(ON_CALL_SIGNALS[0] as (typeof ON_CALL_SIGNALS)[number]), id: "Stray" };
    // act, assess
    expect(() => dashboardBody({ ...input, signals: [...ON_CALL_SIGNALS, stray] })).toThrow(/Stray/);
  });
});

describe("the on-call signals' list", () => {
  it("has unique ids, a one-line why and a runbook entry for each", () => {
    expect(new Set(ON_CALL_SIGNALS.map((s) => s.id)).size).toBe(ON_CALL_SIGNALS.length);
    for (const s of ON_CALL_SIGNALS) {
      expect(s.runbook, s.id).not.toBe("");
      expect(s.why, s.id).not.toMatch(/\n/);
      expect(s.evaluationPeriods * s.periodS, s.id).toBeLessThanOrEqual(86_400 * 2);
    }
  });
});
