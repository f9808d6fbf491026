import type { TimelineEntry } from "../drills/timeline";
import type { StoryCount } from "./story-count";

const LANE_H = 46;
const LEFT = 130;
const WIDTH = 1100;

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );

/**
 * The story's timeline as one self-contained page: a swimlane per actor (time across, each event a dot with its text
 * on hover and in the table below) and the final count, which the page's script renders from the embedded data, so a
 * browser test that reads the count reads what a person sees.
 */
export function storyHtml(
  title: string,
  entries: readonly TimelineEntry[],
  count: StoryCount,
  verdict: string,
): string {
  const actors = [...new Set(entries.map((e) => e.actor))];
  const end = Math.max(1, ...entries.map((e) => e.t));
  const x = (t: number) => LEFT + ((WIDTH - LEFT - 20) * t) / end;
  const lanes = actors
    .map((a, i) => {
      const y = 30 + i * LANE_H;
      return `<line x1="${LEFT}" y1="${y}" x2="${WIDTH - 10}" y2="${y}" class="lane"/><text x="8" y="${y + 4}" class="actor">${escapeHtml(a)}</text>`;
    })
    .join("");
  const dots = entries
    .map((e, i) => {
      const y = 30 + actors.indexOf(e.actor) * LANE_H;
      return `<g class="ev"><circle cx="${x(e.t).toFixed(1)}" cy="${y}" r="6"/><text x="${x(e.t).toFixed(1)}" y="${y - 10}" class="n">${i + 1}</text><title>${e.t.toFixed(2)} s ${escapeHtml(e.actor)}: ${escapeHtml(e.event)}</title></g>`;
    })
    .join("");
  const axis = Array.from({ length: 6 }, (_, i) => (end * i) / 5)
    .map(
      (t) =>
        `<text x="${x(t).toFixed(1)}" y="${30 + actors.length * LANE_H}" class="t">${t.toFixed(1)} s</text>`,
    )
    .join("");
  const rows = entries
    .map(
      (e, i) =>
        `<tr><td>${i + 1}</td><td>${e.t.toFixed(2)} s</td><td>${e.region}</td><td>${escapeHtml(e.actor)}</td><td>${escapeHtml(e.event)}</td><td class="holds">${escapeHtml(e.holds ?? "")}</td></tr>`,
    )
    .join("\n");
  const height = 50 + actors.length * LANE_H;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
body{font:14px system-ui,sans-serif;margin:24px;color:#1d2330}
svg{background:#f7f8fa;border-radius:8px}
.lane{stroke:#c9ced8;stroke-width:2}.actor{font-weight:600;font-size:13px}
.ev circle{fill:#2f6fdf}.ev:hover circle{fill:#e2702a}.n{font-size:10px;text-anchor:middle;fill:#555}.t{font-size:11px;fill:#777;text-anchor:middle}
table{border-collapse:collapse;margin-top:16px}td,th{padding:3px 8px;border-bottom:1px solid #e3e6eb;text-align:left;vertical-align:top}
.holds{color:#667;font-size:12px}#count li{margin:2px 0}.ok{color:#137a3a}.bad{color:#b3261e}
</style></head><body>
<h1>${escapeHtml(title)}</h1>
<svg width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="swimlanes per actor">${lanes}${dots}${axis}</svg>
<h2>Final count</h2><ul id="count"></ul><p id="verdict"></p>
<table><thead><tr><th>#</th><th>time</th><th>Rg</th><th>actor</th><th>event</th><th>what the stores hold</th></tr></thead><tbody>
${rows}
</tbody></table>
<script type="application/json" id="data">${JSON.stringify({ count, verdict }).replace(/</g, "\\u003c")}</script>
<script>
const { count: c, verdict } = JSON.parse(document.getElementById("data").textContent);
const lines = [
  "charges at the PSP: " + c.charges.length,
  "charges for the order: " + c.orderCharges,
  "m1 balance: R1 " + c.merchant.R1.balance + ", R2 " + c.merchant.R2.balance,
  "m1 daily total: R1 " + c.totals.R1 + ", R2 " + c.totals.R2,
  "m2 daily total: " + c.m2Total,
  "notifications shown: " + c.shown + " (on the screen " + c.onScreen + ", alerts " + c.alerts + ")",
  "K2: resolve said " + c.k2.state + ", charges " + c.k2Charges,
];
for (const l of lines) { const li = document.createElement("li"); li.textContent = l; document.getElementById("count").appendChild(li); }
const v = document.getElementById("verdict"); v.textContent = verdict; v.className = verdict.includes("(exit 0)") ? "ok" : "bad";
</script></body></html>
`;
}
