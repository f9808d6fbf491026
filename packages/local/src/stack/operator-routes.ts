import type { PspDialect, RegionRole } from "@eo/core";
import type { FakePsp } from "@eo/psp";
import type { RegionRuntime } from "../region/start-region";
import { type LocalAnswer, problem } from "../runtime/http-front";
import { LOCAL_CREDENTIALS } from "./regions";
import type { Emulators } from "./start-emulators";

type Route = { method: string; pattern: RegExp; answer: (m: RegExpExecArray) => Promise<LocalAnswer> };

/**
 * `GET /_local/resources`: where the emulators are, each Region's API and its tables and queues, so that a checker
 * that knows nothing of the project's code can read the raw tables and the queues' depths (the fault checker does).
 */
export function resourcesRoute(
  emulators: Emulators,
  running: RegionRuntime[],
  psp: { dialect: PspDialect; webhookPath: string },
): Route {
  const region = (role: RegionRole) => {
    const r = emulators.regions[role];
    return {
      region: r.region,
      api: running.find((x) => x.role === role)?.apiUrl ?? null,
      tables: {
        claims: r.claimTable,
        ledger: r.ledgerTable,
        consumer: r.consumerTable,
        totals: r.totalsTable,
      },
      queues: r.queues,
    };
  };
  return {
    method: "GET",
    pattern: /^\/_local\/resources$/,
    answer: async () => ({
      status: 200,
      body: {
        endpoints: emulators.endpoints,
        credentials: LOCAL_CREDENTIALS,
        // Which dialect the fake PSP speaks: an operator script calls it, and lists it, in the same one.
        psp,
        regions: { primary: region("primary"), standby: region("standby") },
      },
    }),
  };
}

/**
 * `POST /_local/psp/webhooks-to/{region}`: the PSP's webhook endpoint now names that Region's API (the route of the
 * dialect the fake speaks, `webhookPath`). In AWS this is
 * the manual step of a failover (the PSP's dashboard, or a DNS name); a fault schedule's failover takes it too.
 */
export function webhookTargetRoute(psp: FakePsp, running: RegionRuntime[], webhookPath: string): Route {
  return {
    method: "POST",
    pattern: /^\/_local\/psp\/webhooks-to\/([^/]+)$/,
    answer: async (m) => {
      const target = running.find((r) => r.role === m[1]);
      if (!target)
        return {
          status: 404,
          body: problem(
            404,
            "Not Found",
            `no running Region ${m[1]}; running: ${running.map((r) => r.role).join(", ")}`,
          ),
        };
      const url = `${target.apiUrl}${webhookPath}`;
      psp.setWebhookUrl(url);
      return { status: 200, body: { region: target.role, webhook_url: url } };
    },
  };
}
