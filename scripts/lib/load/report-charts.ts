import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** One line of a chart: a label and the field of a SecondSample it draws (dotted for nested fields). */
export interface ChartSeries {
  label: string;
  field: string;
  color: string;
}

/** One chart over time: x is the second of the run, y the named quantity. */
export interface ChartSpec {
  id: string;
  title: string;
  yTitle: string;
  series: ChartSeries[];
}

const BLUE = "#1f77b4";
const ORANGE = "#e07b00";
const GREEN = "#2ca02c";
const RED = "#d62728";
const PURPLE = "#7b4fb0";

/** The four charts of report.html, in page order. */
export const CHARTS: ChartSpec[] = [
  {
    id: "chart-throughput",
    title: "Throughput",
    yTitle: "per second",
    series: [
      { label: "offered", field: "offered", color: BLUE },
      { label: "accepted", field: "accepted", color: GREEN },
      { label: "finals", field: "finals", color: PURPLE },
    ],
  },
  {
    id: "chart-latency",
    title: "First answer latency",
    yTitle: "ms",
    series: [
      { label: "p50", field: "first_answer_ms.p50", color: BLUE },
      { label: "p99", field: "first_answer_ms.p99", color: RED },
    ],
  },
  {
    id: "chart-psp",
    title: "PSP calls and 429s",
    yTitle: "requests per second",
    series: [
      { label: "live", field: "psp_live", color: BLUE },
      { label: "resolver", field: "psp_resolver", color: ORANGE },
      { label: "429s", field: "psp_429", color: RED },
    ],
  },
  {
    id: "chart-backlog",
    title: "Unknown backlog and in flight",
    yTitle: "payments",
    series: [
      { label: "unknown backlog", field: "unknown_backlog", color: RED },
      { label: "in flight", field: "in_flight", color: BLUE },
    ],
  },
];

/** The id of the CPU bar chart's canvas, drawn only when the report has CPU seconds. */
export const CPU_CHART_ID = "chart-cpu";

let chartJs: string | undefined;

/** Chart.js's UMD build from node_modules, made safe to sit inside an inline script element. */
export function chartJsSource(): string {
  if (chartJs === undefined) {
    // The package's exports hide dist/chart.umd.min.js, so find it beside the resolvable entry point.
    const entry = createRequire(import.meta.url).resolve("chart.js");
    const source = readFileSync(join(dirname(entry), "chart.umd.min.js"), "utf8");
    // A source map comment would make devtools reach for a file that is not beside report.html.
    chartJs = inlineScriptSafe(source.replace(/\/\/# sourceMappingURL=\S+\s*$/, ""));
  }
  return chartJs;
}

/** Keeps a script's text from ending its element early: `<\/` means `</` inside JS strings and regexes. */
export function inlineScriptSafe(js: string): string {
  return js.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

/**
 * The page's own script: reads the embedded report and chart specs and draws them with Chart.js.
 * Plain ES5 in a string so that it runs as written in any browser, with no build step.
 */
export const CHART_APP = `(function () {
  function json(id) { return JSON.parse(document.getElementById(id).textContent); }
  function pick(sample, field) {
    return field.split(".").reduce(function (o, k) { return o == null ? null : o[k]; }, sample);
  }
  var report = json("report-data");
  var specs = json("chart-specs");
  var base = { animation: false, responsive: true, maintainAspectRatio: false,
    interaction: { mode: "index", intersect: false } };
  function options(title, xTitle, yTitle, extra) {
    return Object.assign({}, base, {
      plugins: { title: { display: true, text: title } },
      scales: { x: { type: "linear", title: { display: true, text: xTitle } },
                y: { beginAtZero: true, title: { display: true, text: yTitle } } }
    }, extra || {});
  }
  specs.forEach(function (spec) {
    var datasets = spec.series.map(function (s) {
      return { label: s.label, borderColor: s.color, backgroundColor: s.color, pointRadius: 0, borderWidth: 1.5,
        data: report.seconds.map(function (x) { return { x: x.t, y: pick(x, s.field) }; }) };
    });
    new Chart(document.getElementById(spec.id), { type: "line", data: { datasets: datasets },
      options: options(spec.title, "seconds", spec.yTitle) });
  });
  var cpu = document.getElementById("${CPU_CHART_ID}");
  if (cpu && report.cpu) {
    var names = Object.keys(report.cpu);
    new Chart(cpu, { type: "bar",
      data: { labels: names, datasets: [{ label: "CPU seconds", backgroundColor: "${BLUE}",
        data: names.map(function (n) { return report.cpu[n]; }) }] },
      options: Object.assign({}, base, { indexAxis: "y", plugins: { legend: { display: false } } }) });
  }
})();`;
