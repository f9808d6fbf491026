import * as hdr from "hdr-histogram-js";
import type { Percentiles } from "./report-types";

/** A latency histogram in ms from 1 ms to one hour, three significant digits (HdrHistogram). */
export function latencyHistogram(): hdr.Histogram {
  return hdr.build({
    lowestDiscernibleValue: 1,
    highestTrackableValue: 3_600_000,
    numberOfSignificantValueDigits: 3,
  });
}

/** Records one latency, clamped into the histogram's range (0 ms reads as 1 ms). */
export function record(h: hdr.Histogram, ms: number): void {
  h.recordValue(Math.min(3_600_000, Math.max(1, Math.round(ms))));
}

/** The percentiles the report shows. */
export function percentilesOf(h: hdr.Histogram): Percentiles {
  const at = (p: number) => (h.totalCount === 0 ? 0 : h.getValueAtPercentile(p));
  return {
    count: h.totalCount,
    p50: at(50),
    p90: at(90),
    p99: at(99),
    p999: at(99.9),
    max: h.totalCount === 0 ? 0 : h.maxValue,
  };
}
