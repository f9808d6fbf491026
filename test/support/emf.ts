import { vi } from "vitest";

/** One metric as the embedded metric format line in the log said it: its name, value, unit and dimensions. */
export interface EmfMetric {
  namespace: string;
  name: string;
  value: number;
  unit?: string;
  dimensions: Record<string, string>;
}

/**
 * Reads what the handlers publish from the log output itself: every embedded-metric-format line written to stdout
 * while it watches (Powertools writes each flush as one JSON line with `_aws.CloudWatchMetrics`). Call before the
 * handler module is imported, so that its Metrics instance is not disabled by POWERTOOLS_DEV (the local stack's).
 */
export function watchEmf() {
  process.env.POWERTOOLS_METRICS_DISABLED = "false";
  const lines: string[] = [];
  const original = process.stdout.write.bind(process.stdout);
  const spy = vi.spyOn(process.stdout, "write").mockImplementation(((chunk: unknown, ...rest: unknown[]) => {
    const text = String(chunk);
    if (text.includes('"_aws"')) {
      lines.push(...text.split("\n").filter((l) => l.includes('"_aws"')));
      return true;
    }
    return (original as (...a: unknown[]) => boolean)(chunk, ...rest);
  }) as typeof process.stdout.write);
  // Under POWERTOOLS_DEV (the local stack's handlers) Powertools writes through the global console instead.
  const log = console.log;
  const consoleSpy = vi.spyOn(console, "log").mockImplementation((...args: unknown[]) => {
    if (typeof args[0] === "string" && args[0].includes('"_aws"')) lines.push(args[0]);
    else log(...args);
  });
  const metrics = (): EmfMetric[] => lines.flatMap(parseEmf);
  return {
    metrics,
    /** The metrics of a name, optionally with these dimension values. */
    of: (name: string, dims: Record<string, string> = {}) =>
      metrics().filter(
        (m) => m.name === name && Object.entries(dims).every(([k, v]) => m.dimensions[k] === v),
      ),
    clear: () => {
      lines.length = 0;
    },
    stop: () => {
      spy.mockRestore();
      consoleSpy.mockRestore();
    },
  };
}

/** The metrics of one EMF line (one value per metric; Powertools may store a list of values). */
export function parseEmf(line: string): EmfMetric[] {
  const doc = JSON.parse(line) as Record<string, unknown> & {
    _aws: {
      CloudWatchMetrics: Array<{
        Namespace: string;
        Dimensions: string[][];
        Metrics: Array<{ Name: string; Unit?: string }>;
      }>;
    };
  };
  return doc._aws.CloudWatchMetrics.flatMap((d) => {
    const dimensions = Object.fromEntries((d.Dimensions[0] ?? []).map((k) => [k, String(doc[k])]));
    return d.Metrics.flatMap((m) => {
      const raw = doc[m.Name];
      const values = Array.isArray(raw) ? raw.map(Number) : [Number(raw)];
      return values.map((value) => ({
        namespace: d.Namespace,
        name: m.Name,
        value,
        unit: m.Unit,
        dimensions,
      }));
    });
  });
}
