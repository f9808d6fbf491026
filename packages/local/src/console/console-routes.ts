import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { LocalAnswer } from "../runtime/http-front";
import { consolePage } from "./console-page";
import { type ConsoleSources, consoleState } from "./console-state";

type Route = { method: string; pattern: RegExp; answer: () => Promise<LocalAnswer> };

let chartJs: string | undefined;

// Served from node_modules (chart.js is a pinned dependency), so the page works with no network at all.
function chartJsSource(): string {
  if (chartJs === undefined) {
    // The package's exports hide dist/chart.umd.min.js; it sits beside the resolvable entry point.
    const entry = createRequire(import.meta.url).resolve("chart.js");
    chartJs = readFileSync(join(dirname(entry), "chart.umd.min.js"), "utf8").replace(
      /\/\/# sourceMappingURL=\S+\s*$/,
      "",
    );
  }
  return chartJs;
}

/**
 * `GET /_local/console` (the on-call page), `GET /_local/console/state` (what it polls) and
 * `GET /_local/console/chart.js` (Chart.js from the installed package).
 */
export function consoleRoutes(src: ConsoleSources): Route[] {
  const state = consoleState(src);
  return [
    {
      method: "GET",
      pattern: /^\/_local\/console$/,
      answer: async () => ({
        status: 200,
        raw: { contentType: "text/html; charset=utf-8", text: consolePage() },
      }),
    },
    {
      method: "GET",
      pattern: /^\/_local\/console\/state$/,
      answer: async () => ({ status: 200, body: await state() }),
    },
    {
      method: "GET",
      pattern: /^\/_local\/console\/chart\.js$/,
      answer: async () => ({
        status: 200,
        raw: { contentType: "text/javascript; charset=utf-8", text: chartJsSource() },
      }),
    },
  ];
}
