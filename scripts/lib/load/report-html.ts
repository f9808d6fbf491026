import { CHART_APP, CHARTS, CPU_CHART_ID, chartJsSource } from "./report-charts";
import type { LoadReport, Percentiles } from "./report-types";

// Nothing leaves the page: no fetch, no fonts, no images from anywhere; only the inline scripts and styles run.
const CSP = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";

const CSS = `
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1b1f24; background: #fff;
  margin: 2rem auto; max-width: 1100px; padding: 0 1rem; line-height: 1.4; }
h1 { font-size: 1.5rem; margin-bottom: 0.25rem; } h2 { font-size: 1.15rem; margin-top: 2rem; }
.meta { color: #57606a; margin: 0 0 1rem; }
.settings { display: flex; flex-wrap: wrap; gap: 0.4rem; padding: 0; list-style: none; }
.settings li { background: #f3f4f6; border: 1px solid #d0d7de; border-radius: 4px; padding: 0.1rem 0.5rem;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85rem; }
.verdict { font-size: 1.2rem; font-weight: 600; padding: 0.75rem 1rem; border-radius: 6px; }
.verdict.ok, td.ok { background: #dafbe1; color: #116329; } .verdict.bad, td.bad { background: #ffebe9; color: #a40e26; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { border: 1px solid #d0d7de; padding: 0.3rem 0.6rem; text-align: left; vertical-align: top; }
th { background: #f6f8fa; } td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.detail { white-space: pre-wrap; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.85rem; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(480px, 1fr)); gap: 1rem; }
.chart { position: relative; height: 300px; border: 1px solid #d0d7de; border-radius: 6px; padding: 0.5rem; }
.chart.small { height: 200px; max-width: 640px; }
`;

/** Renders one load run as a single self-contained HTML page: tables, charts and the report's JSON. */
export function renderReportHtml(report: LoadReport): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>Load report ${escapeHtml(report.run_id)}</title>`,
    `<style>${CSS}</style>`,
    "</head>",
    "<body>",
    header(report),
    verdict(report),
    buyersSection(report.buyers),
    section("Invariants", invariantsTable(report)),
    section("Summary", summaryTable(report.summary)),
    section("Latency percentiles (ms)", latencyTable(report.latency)),
    section("Over time", chartsGrid()),
    cpuSection(report.cpu),
    jsonScript("report-data", report),
    jsonScript("chart-specs", CHARTS),
    `<script id="chart-js">${chartJsSource()}</script>`,
    `<script id="chart-app">${CHART_APP}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/**
 * Data as JSON inside a script element that no string in it can close: `<`, `>` and `&` only occur inside
 * JSON strings, where their \u escapes mean the same characters, so JSON.parse gives back the same value.
 */
export function jsonScript(id: string, value: unknown): string {
  const json = JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
  return `<script type="application/json" id="${escapeHtml(id)}">${json}</script>`;
}

function header(report: LoadReport): string {
  const settings = Object.entries(report.settings)
    .map(([k, v]) => `<li>${escapeHtml(k)}=${escapeHtml(String(v))}</li>`)
    .join("");
  return [
    `<h1>Load report: run ${escapeHtml(report.run_id)}</h1>`,
    `<p class="meta">Started ${escapeHtml(report.started_at)}, ${report.seconds.length} seconds sampled</p>`,
    `<ul class="settings">${settings}</ul>`,
  ].join("\n");
}

function verdict(report: LoadReport): string {
  const broken = report.invariants.filter((i) => !i.ok);
  const gaveUp = report.buyers?.gave_up ?? 0;
  if (report.ok && broken.length === 0) {
    const buyers = report.buyers ? `; no buyer gave up (${report.buyers.buyers} buyers)` : "";
    return `<p class="verdict ok" id="verdict">Verdict: OK, all ${report.invariants.length} invariants hold${buyers}</p>`;
  }
  const names = broken.map((i) => escapeHtml(i.name)).join(", ");
  const what = [
    ...(broken.length > 0
      ? [`${broken.length} of ${report.invariants.length} invariants broken: ${names}`]
      : []),
    ...(gaveUp > 0 ? [`${gaveUp} buyers gave up (must pay again)`] : []),
  ];
  const label = broken.length > 0 ? "VIOLATED" : "NOT OK";
  return `<p class="verdict bad" id="verdict">Verdict: ${label}, ${what.join("; ") || "run failed"}</p>`;
}

function buyersSection(v: LoadReport["buyers"]): string {
  if (!v) return "";
  const x = (r: number | null) => (r === null ? "n/a (no queue)" : `${r}×`);
  const rows = [
    [
      `final answer within the ${v.horizon_s} s horizon`,
      `${v.final_within_horizon_pct} % (${v.final_within_horizon} of ${v.buyers})`,
    ],
    ["final only after the horizon", String(v.final_after_horizon)],
    ["gave up: voided (must pay again)", String(v.voided)],
    ["gave up: no final answer at the end", String(v.not_final)],
    ["FIFO bound (least possible worst wait, s)", String(v.fifo_bound_s)],
    ["final answer p99 (s) / bound", `${v.final_p99_s} / ${x(v.p99_over_bound)}`],
    ["final answer max (s) / bound", `${v.final_max_s} / ${x(v.max_over_bound)}`],
  ].map(([k, val]) => [cell(k as string), cell(val as string, "num")]);
  // A buyer who gave up is the verdict's reason, so those rows are marked like a broken invariant.
  if (v.voided > 0) rows[2] = [cell("gave up: voided (must pay again)"), cell(String(v.voided), "bad")];
  if (v.not_final > 0)
    rows[3] = [cell("gave up: no final answer at the end"), cell(String(v.not_final), "bad")];
  return section("Buyers", table(["", "value"], rows));
}

function section(title: string, body: string): string {
  return `<section>\n<h2>${escapeHtml(title)}</h2>\n${body}\n</section>`;
}

function table(head: string[], rows: string[][]): string {
  const th = head.map((h) => `<th>${escapeHtml(h)}</th>`).join("");
  const trs = rows.map((cells) => `<tr>${cells.join("")}</tr>`).join("\n");
  return `<table>\n<thead><tr>${th}</tr></thead>\n<tbody>\n${trs}\n</tbody>\n</table>`;
}

function cell(text: string, cls?: string): string {
  return cls ? `<td class="${cls}">${escapeHtml(text)}</td>` : `<td>${escapeHtml(text)}</td>`;
}

function invariantsTable(report: LoadReport): string {
  const rows = report.invariants.map((i) => [
    cell(i.name),
    cell(i.ok ? "ok" : "violated", i.ok ? "ok" : "bad"),
    cell(i.detail, "detail"),
  ]);
  return table(["invariant", "result", "detail"], rows);
}

function summaryTable(summary: LoadReport["summary"]): string {
  const rows = Object.entries(summary).map(([k, v]) => [
    cell(k),
    cell(String(v), typeof v === "number" ? "num" : undefined),
  ]);
  return table(["", "value"], rows);
}

function latencyTable(latency: LoadReport["latency"]): string {
  const row = (label: string, p: Percentiles) => [
    cell(label),
    ...[p.p50, p.p90, p.p99, p.p999, p.max].map((ms) => cell(formatMs(ms), "num")),
    cell(String(p.count), "num"),
  ];
  return table(
    ["", "p50", "p90", "p99", "p99.9", "max", "count"],
    [
      row("first answer", latency.first_answer),
      row("final answer", latency.final_answer),
      row("tap to notification", latency.tap_to_notification),
    ],
  );
}

/** Milliseconds to a short string: whole numbers from 100 ms, one decimal below, a dash when unmeasured. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "–";
  return ms >= 100 ? ms.toFixed(0) : ms.toFixed(1);
}

function chartsGrid(): string {
  const boxes = CHARTS.map(
    (c) =>
      `<div class="chart"><canvas id="${c.id}" aria-label="${escapeHtml(c.title)}" role="img"></canvas></div>`,
  );
  return `<div class="charts">\n${boxes.join("\n")}\n</div>`;
}

function cpuSection(cpu: LoadReport["cpu"]): string {
  if (!cpu || Object.keys(cpu).length === 0) return "";
  const total = Object.values(cpu).reduce((a, b) => a + b, 0);
  const rows = Object.entries(cpu).map(([name, s]) => [
    cell(name),
    cell(s.toFixed(2), "num"),
    cell(total > 0 ? `${((100 * s) / total).toFixed(0)} %` : "–", "num"),
  ]);
  const chart = `<div class="chart small"><canvas id="${CPU_CHART_ID}" aria-label="CPU seconds by process" role="img"></canvas></div>`;
  return section("CPU seconds by process", `${table(["process", "CPU s", "share"], rows)}\n${chart}`);
}
