import type { PspDialect, RegionRole } from "@eo/core";
import { Progress, runFailover } from "@eo/core/failover";
import { LOCAL_FAILOVER_SETTINGS, localSides } from "../region/local-sides";
import { localSecrets } from "../stack/handler-env";
import type { LocalStack } from "../stack/start-stack";

/** Runs the same failover as `npm run failover -- --local`, against this stack, and answers its outcome. */
export async function drillFailover(
  stack: LocalStack,
  to: RegionRole,
  force: boolean,
  say: (line: string) => void,
  /** A test's shorter waits (a canary timeout), over the local ones. */
  overrides: { canaryTimeoutMs?: number } = {},
) {
  const port = (url: string | undefined) => new URL(url ?? "http://127.0.0.1:0").origin;
  const sides = localSides({
    dynamodb: stack.emulators.endpoints.dynamodb,
    apis: { primary: port(stack.apiUrl), standby: port(stack.standbyUrl) },
    regions: {
      primary: stack.emulators.regions.primary.region,
      standby: stack.emulators.regions.standby.region,
    },
  });
  const p = new Progress((line) => say(`    ${line}`));
  return runFailover(
    p,
    sides,
    { to, dryRun: false, force },
    {
      ...LOCAL_FAILOVER_SETTINGS,
      ...overrides,
      psp: { url: stack.psp.url, apiKey: localPspKey(stack.pspDialect), psp: stack.pspDialect },
    },
  );
}

/** The key the local stack's handlers hold for its dialect (handler-env.ts localSecrets). */
function localPspKey(dialect: PspDialect): string {
  const secrets = localSecrets();
  return secrets[dialect === "stripe" ? "StripeSecretKey" : "PspApiKey"] ?? "";
}
