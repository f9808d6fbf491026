import { CONSOLE_APP } from "./console-app";

const CSS = `
  :root { font: 14px/1.4 system-ui, sans-serif; color: #1d2430; background: #f4f6f9; }
  body { margin: 0; padding: 16px 20px; }
  header { display: flex; align-items: baseline; gap: 16px; }
  h1 { font-size: 20px; margin: 0 0 8px; }
  h2 { font-size: 13px; text-transform: uppercase; letter-spacing: .04em; color: #5a6475; margin: 0 0 8px; }
  #refreshed { color: #5a6475; } #refreshed.stale { color: #b3261e; font-weight: 600; }
  .grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(300px, 1fr)); gap: 12px; margin-top: 12px; }
  section { background: #fff; border: 1px solid #d9dee7; border-radius: 6px; padding: 12px; }
  section.wide { grid-column: 1 / -1; }
  section.two { grid-column: span 2; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: 3px 6px; border-bottom: 1px solid #eef1f5; font-variant-numeric: tabular-nums; }
  th { color: #5a6475; font-weight: 500; }
  .big { font-size: 22px; font-weight: 600; }
  #warnings { margin-top: 8px; }
  .warning { background: #fff4d6; border: 1px solid #e0b100; border-radius: 6px; padding: 8px 12px; margin: 4px 0; }
  .agree { color: #1e7b34; }
  .state-ALARM { color: #fff; background: #b3261e; }
  .state-BREACHING { background: #ffe08a; }
  .state-OK { color: #1e7b34; }
  .state-NOT_MEASURED { color: #8a93a3; }
  .pill { border-radius: 4px; padding: 1px 6px; font-size: 12px; font-weight: 600; white-space: nowrap; }
  .down { color: #b3261e; font-weight: 600; } .up { color: #1e7b34; font-weight: 600; }
  .chart { position: relative; height: 180px; }
`;

const BODY = `
<header><h1>On-call console · local stack</h1><span id="refreshed">loading…</span></header>
<div id="warnings"></div>
<div class="grid">
  <section><h2>Authority</h2><div id="authority"></div></section>
  <section class="two"><h2>Each Region's view</h2><table id="regions"></table></section>
  <section><h2>Replication</h2><div id="replication"></div></section>
  <section><h2>Payments by state</h2><table id="payments"></table></section>
  <section><h2>Unknown backlog</h2><table id="backlog"></table></section>
  <section><h2>Queues</h2><table id="queues"></table></section>
  <section><h2>API answers</h2><table id="answers"></table></section>
  <section><h2>Anomalies and notifications</h2><table id="problems"></table></section>
  <section class="wide"><h2>PSP calls</h2><div id="psp"></div>
    <div class="chart"><canvas id="psp-chart"></canvas></div></section>
  <section class="wide"><h2>Alarms (the thresholds deployed in AWS)</h2><table id="alarms"></table></section>
</div>`;

/**
 * The console's page: static HTML and CSS, Chart.js from the installed package (`/_local/console/chart.js`), and
 * the script that polls `/_local/console/state` and draws it. Nothing is fetched from the network.
 */
export function consolePage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>On-call console · effectively-once (local)</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>${CSS}</style></head>
<body>${BODY}
<script src="/_local/console/chart.js"></script>
<script>${CONSOLE_APP}</script>
</body></html>`;
}
