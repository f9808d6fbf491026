import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { renderReportHtml } from "./report-html";
import type { LoadReport } from "./report-types";

/** Writes report.json (pretty) and the self-contained report.html into dir, creating it, and returns their paths. */
export async function writeReports(dir: string, report: LoadReport): Promise<{ json: string; html: string }> {
  const folder = resolve(dir);
  await mkdir(folder, { recursive: true });
  const json = join(folder, "report.json");
  const html = join(folder, "report.html");
  await writeFile(json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(html, renderReportHtml(report));
  return { json, html };
}
