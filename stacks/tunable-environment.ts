import { longestActingTimeoutS } from "./act-window";
import type { InfraConfig } from "./config";

/**
 * The handlers' tunables under the names their environment gives them (stacks/functions.ts), so that a script run
 * by hand (the resolver's PSP budget shares the function's buckets) counts with the deployed numbers.
 */
export function tunableEnvironment(config: InfraConfig): Record<string, string> {
  const t = config.tunables;
  return {
    DEADLINE_MS: String(t.deadlineMs),
    KEY_WINDOW_S: String(t.keyWindowS),
    PSP_RATE_PER_S: String(t.pspRatePerS),
    PSP_ENDPOINT_RATE_PER_S: String(t.pspEndpointRatePerS),
    RESOLVER_RATE_PER_S: String(t.resolverRatePerS),
    // The act window's longest timeout, from the deployed handlers (Sweeps' 120 s today), not the tunables' 30 s
    // default: the failover waits out this much after the fence before the new Region acts.
    FUNCTION_TIMEOUT_MS: String(longestActingTimeoutS() * 1000),
    // The PSP's dialect: a script that calls or lists the PSP speaks the stage's (its secrets are named after it).
    PSP: config.psp,
  };
}
