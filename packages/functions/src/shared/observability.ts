import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics, MetricUnit } from "@aws-lambda-powertools/metrics";
import { Tracer } from "@aws-lambda-powertools/tracer";
import { setSignalSink } from "@eo/core";

/**
 * Powertools Logger, Metrics and Tracer, created once per process and shared by every handler.
 * Logs carry payment ids, states and event ids only: never card data, tokens or request bodies.
 */
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? "effectively-once" });
export const metrics = new Metrics({
  namespace: process.env.POWERTOOLS_METRICS_NAMESPACE ?? "EffectivelyOnce",
  serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? "effectively-once",
});
export const tracer = new Tracer({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? "effectively-once" });

// What the domain counts for on-call (PSP calls, authority reads, write conflicts) becomes a metric of its own,
// published at once: a handler that fails before its flush still reports it, and each keeps its own dimensions.
setSignalSink({
  count(name, n, dimensions) {
    const one = metrics.singleMetric();
    if (dimensions) one.addDimensions(dimensions);
    one.addMetric(name, MetricUnit.Count, n);
  },
});
