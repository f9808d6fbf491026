import { Logger } from "@aws-lambda-powertools/logger";
import { Metrics } from "@aws-lambda-powertools/metrics";
import { Tracer } from "@aws-lambda-powertools/tracer";

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
