import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { CHARTS, CPU_CHART_ID } from "../../scripts/lib/load/report-charts";
import { renderReportHtml } from "../../scripts/lib/load/report-html";
import type { LoadReport, SecondSample } from "../../scripts/lib/load/report-types";
import { writeReports } from "../../scripts/lib/load/write-report";

const MALICIOUS = "</script><img onerror=x>";

function second(t: number): SecondSample {
  return {
    t,
    offered: 40,
    accepted: 38 + (t % 2),
    in_flight: 3 + t,
    first_answers: { "201": 36, "202": 2, "503": 2 - (t % 2) },
    finals: 37,
    psp_live: 38,
    psp_resolver: t >= 2 ? 5 : 0,
    psp_429: t === 3 ? 1 : 0,
    unknown_backlog: t >= 2 ? 4 - t : 0,
    first_answer_ms: { p50: 40 + t, p99: 180 + 10 * t },
  };
}

function sampleReport(): LoadReport {
  const p = (base: number, count: number) => ({
    count,
    p50: base,
    p90: base * 2,
    p99: base * 4,
    p999: base * 8,
    max: base * 9.5,
  });
  return {
    run_id: "load-2026-01-02T03-04-05Z-ab12",
    started_at: "2026-01-02T03:04:05.000Z",
    settings: { rate: 40, duration: 4, "psp-outage": "2:1", "lose-reply-rate": 0.001, url: "" },
    seconds: [0, 1, 2, 3].map(second),
    latency: { first_answer: p(41.5, 160), final_answer: p(120, 158), tap_to_notification: p(850, 150) },
    summary: { offered: 160, accepted: 153, "final within 10 s": "98.8 %", note: "a & b <i>" },
    invariants: [
      { name: "at most one charge per (caller, key)", ok: true, detail: "153 charges, 153 keys" },
      { name: "no payment left unknown", ok: false, detail: `2 left: pay_1, pay_2 ${MALICIOUS}` },
    ],
    cpu: { stack: 12.5, "dynamodb-local": 20.25, fauxqs: 3 },
    ok: false,
  };
}

/** The text of the first script element with this id, up to the first closing tag a browser would see. */
function scriptText(html: string, id: string): string {
  const open = new RegExp(`<script[^>]*\\bid="${id}"[^>]*>`).exec(html);
  if (!open) throw new Error(`no script #${id}`);
  const start = open.index + open[0].length;
  const end = html.toLowerCase().indexOf("</script", start);
  return html.slice(start, end);
}

/** What the inlined Chart.js drew on one canvas, as plain data. */
interface DrawnChart {
  canvas: string;
  type: string;
  xScale: string;
  labels: unknown[];
  datasets: Array<{ label: string; data: unknown }>;
}

/** A canvas with a 2D context that accepts every drawing call: there is no browser here, only Chart.js's logic. */
function fakeCanvas(id: string): object {
  const canvas = { id, width: 640, height: 300, style: {}, getContext: () => context };
  const context: object = new Proxy(
    {},
    {
      get: (_t, key) =>
        key === "canvas" ? canvas : key === "measureText" ? () => ({ width: 8 }) : () => undefined,
      set: () => true,
    },
  );
  return canvas;
}

/** Runs the page's two scripts, the inlined Chart.js and the page's own, against a document made of the page. */
function drawCharts(html: string): DrawnChart[] {
  const drawn: DrawnChart[] = [];
  const canvases = new Set([...html.matchAll(/<canvas id="([^"]+)"/g)].map((m) => m[1]));
  const document = {
    getElementById: (id: string) =>
      canvases.has(id)
        ? fakeCanvas(id)
        : /^(report-data|chart-specs)$/.test(id)
          ? { textContent: scriptText(html, id) }
          : null,
  };
  const page: Record<string, unknown> = { document };
  runInNewContext(scriptText(html, "chart-js"), page);
  page.Chart = new Proxy(page.Chart as new (...args: unknown[]) => object, {
    construct: (Chart, args) => {
      // biome-ignore lint/suspicious/noExplicitAny: a Chart.js instance from another realm, read for its data only
      const chart: any = Reflect.construct(Chart, args);
      const { data, config, scales } = chart;
      const plain = {
        type: config.type,
        xScale: scales.x.type,
        labels: data.labels,
        datasets: data.datasets,
      };
      drawn.push({ canvas: (args[0] as { id: string }).id, ...JSON.parse(JSON.stringify(plain)) });
      return chart;
    },
  });
  runInNewContext(scriptText(html, "chart-app"), page);
  return drawn;
}

describe("report.html: one load run on one self-contained page", () => {
  it("needs no network to be viewed: no external src or href, Chart.js inlined, a CSP that forbids fetching", () => {
    // prepare / act
    const html = renderReportHtml(sampleReport());
    // assess
    expect(html).not.toMatch(/\b(?:src|href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/@import|url\(\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<link\b/i);
    expect(scriptText(html, "chart-js")).toContain("Chart.js v4.6.1");
    expect(html).not.toContain("sourceMappingURL");
    expect(html).toContain(
      `content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'"`,
    );
  });

  it("embeds the report as JSON that parses back to the same report", () => {
    // prepare
    const report = sampleReport();
    // act
    const html = renderReportHtml(report);
    // assess
    expect(JSON.parse(scriptText(html, "report-data"))).toEqual(report);
  });

  it("keeps a detail holding </script> from closing the script or injecting markup", () => {
    // prepare / act
    const html = renderReportHtml(sampleReport());
    // assess: every closing tag a browser sees belongs to one of the page's own four scripts
    expect(html).not.toContain(MALICIOUS);
    expect(html).not.toMatch(/<img\b/i);
    expect(html.match(/<\/script/gi)).toHaveLength(4);
    expect(html.match(/<script\b/gi)).toHaveLength(4);
    expect(html).toContain("&lt;/script&gt;&lt;img onerror=x&gt;");
  });

  it("puts the verdict at the top, then invariants, summary and the latency percentiles", () => {
    // prepare / act
    const html = renderReportHtml(sampleReport());
    // assess
    expect(html).toContain("<h1>Load report: run load-2026-01-02T03-04-05Z-ab12</h1>");
    expect(html).toContain("<li>psp-outage=2:1</li>");
    expect(html).toMatch(
      /<p class="verdict bad" id="verdict">Verdict: VIOLATED, 1 of 2 invariants broken: no payment left unknown<\/p>/,
    );
    expect(html.indexOf('id="verdict"')).toBeLessThan(html.indexOf("<table"));
    expect(html).toContain('<td class="bad">violated</td>');
    expect(html).toContain("<td>a &amp; b &lt;i&gt;</td>");
    expect(html).toMatch(
      /<td>first answer<\/td><td class="num">41\.5<\/td><td class="num">83\.0<\/td><td class="num">166<\/td><td class="num">332<\/td><td class="num">394<\/td><td class="num">160<\/td>/,
    );
    expect(html).toContain("<td>tap to notification</td>");
  });

  it("draws, with the inlined Chart.js, throughput, latency, PSP calls and backlog over seconds, and CPU by process", () => {
    // prepare
    const report = sampleReport();
    // act
    const drawn = drawCharts(renderReportHtml(report));
    // assess
    expect(drawn.map((d) => d.canvas)).toEqual([
      "chart-throughput",
      "chart-latency",
      "chart-psp",
      "chart-backlog",
      CPU_CHART_ID,
    ]);
    const series = (canvas: string) =>
      Object.fromEntries(
        drawn.find((d) => d.canvas === canvas)?.datasets.map((s) => [s.label, s.data]) ?? [],
      );
    expect(series("chart-throughput").accepted).toEqual(
      report.seconds.map((s) => ({ x: s.t, y: s.accepted })),
    );
    expect(series("chart-latency").p99).toEqual(
      report.seconds.map((s) => ({ x: s.t, y: s.first_answer_ms.p99 })),
    );
    expect(Object.keys(series("chart-psp"))).toEqual(["live", "resolver", "429s"]);
    expect(series("chart-psp")["429s"]).toEqual(report.seconds.map((s) => ({ x: s.t, y: s.psp_429 })));
    expect(series("chart-backlog")["unknown backlog"]).toEqual(
      report.seconds.map((s) => ({ x: s.t, y: s.unknown_backlog })),
    );
    expect(drawn.slice(0, 4).every((d) => d.type === "line" && d.xScale === "linear")).toBe(true);
    expect(drawn.at(-1)).toMatchObject({ type: "bar", labels: ["stack", "dynamodb-local", "fauxqs"] });
    expect(drawn.at(-1)?.datasets[0]?.data).toEqual([12.5, 20.25, 3]);
    expect(CHARTS).toHaveLength(4);
  });

  it("says OK when every invariant holds, and leaves out CPU when the stack was not ours", () => {
    // prepare
    const report = { ...sampleReport(), cpu: undefined, ok: true };
    report.invariants = report.invariants.map((i) => ({ ...i, ok: true, detail: "none" }));
    // act
    const html = renderReportHtml(report);
    // assess
    expect(html).toContain('<p class="verdict ok" id="verdict">Verdict: OK, all 2 invariants hold</p>');
    expect(html).not.toContain(`<canvas id="${CPU_CHART_ID}"`);
    expect(drawCharts(html)).toHaveLength(4);
  });
});

describe("renderReportHtml, the buyers' verdict", () => {
  it("says NOT OK when every invariant holds but buyers gave up, and shows the FIFO bound beside p99 and max", () => {
    // prepare
    const report = { ...sampleReport(), ok: false };
    report.invariants = report.invariants.map((i) => ({ ...i, ok: true, detail: "none" }));
    report.buyers = {
      buyers: 245,
      horizon_s: 45,
      final_within_horizon: 240,
      final_within_horizon_pct: 98,
      final_after_horizon: 2,
      voided: 3,
      not_final: 0,
      gave_up: 3,
      fifo_bound_s: 25.7,
      final_p99_s: 41.8,
      final_max_s: 43,
      p99_over_bound: 1.63,
      max_over_bound: 1.67,
      ok: false,
    };
    // act
    const html = renderReportHtml(report);
    // assess
    expect(html).toContain(
      '<p class="verdict bad" id="verdict">Verdict: NOT OK, 3 buyers gave up (must pay again)</p>',
    );
    expect(html).toContain("<h2>Buyers</h2>");
    expect(html).toContain('<td>gave up: voided (must pay again)</td><td class="bad">3</td>');
    expect(html).toContain('<td class="num">41.8 / 1.63×</td>');
    expect(html).toContain('<td class="num">98 % (240 of 245)</td>');
  });
});

describe("writeReports", () => {
  it("creates the folder and writes report.json and report.html into it", async () => {
    // prepare
    const root = await mkdtemp(join(tmpdir(), "eo-report-"));
    const report = sampleReport();
    try {
      // act
      const paths = await writeReports(join(root, "runs", report.run_id), report);
      // assess
      expect(paths).toEqual({
        json: join(root, "runs", report.run_id, "report.json"),
        html: join(root, "runs", report.run_id, "report.html"),
      });
      const json = await readFile(paths.json, "utf8");
      expect(JSON.parse(json)).toEqual(report);
      expect(json).toContain('\n  "run_id"');
      expect(await readFile(paths.html, "utf8")).toBe(renderReportHtml(report));
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
