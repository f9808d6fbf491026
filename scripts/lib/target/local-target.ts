import type { RegionRole } from "@eo/core";
import { authorityRegion, CONTROL_TABLE } from "../../../packages/local/src/region/control-table";
import { type RegionTarget, type Target, TargetError } from "./target";

/** The local stack's ports the scripts need, from the variables `npm start` reads, with its defaults. */
export function localPorts(env: NodeJS.ProcessEnv = process.env) {
  const port = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const n = Number(raw);
    if (!Number.isInteger(n) || n <= 0 || n > 65535)
      throw new TargetError(`refused: ${name}=${raw} is not a port number`);
    return n;
  };
  return { api: port("API_PORT", 3000), psp: port("PSP_PORT", 3001) };
}

/** One Region of `GET /_local/resources` (packages/local/src/stack/operator-routes.ts). */
interface LocalRegionResources {
  region: string;
  api: string | null;
  tables: { claims: string; ledger: string; consumer: string; totals?: string };
  queues: { events: string; eventsDlq: string; streamJobFailures?: string };
}

interface LocalResources {
  endpoints: { dynamodb: string; sqs: string };
  regions: Record<RegionRole, LocalRegionResources>;
  /** The fake PSP's dialect (absent from a stack older than issue 30: the generic one). */
  psp?: { dialect?: string };
}

/**
 * `--local`: the stack that answers on API_PORT, which tells where its emulators, tables and queues are
 * (`GET /_local/resources`, served on every port, also by a failed or partitioned Region). Refused (exit 2) when
 * nothing answers there. The authority is the witness Region's table, outside both Regions, as the stack's own.
 */
export async function localTarget(env: NodeJS.ProcessEnv = process.env): Promise<Target> {
  const p = localPorts(env);
  const api = `http://127.0.0.1:${p.api}`;
  let res: LocalResources;
  try {
    const answer = await fetch(`${api}/_local/resources`, { signal: AbortSignal.timeout(5_000) });
    if (!answer.ok) throw new Error(`HTTP ${answer.status}`);
    res = (await answer.json()) as LocalResources;
  } catch (err) {
    throw new TargetError(
      `refused: no local stack answers on ${api} (${(err as Error).message}; start it with \`npm start\`, or set API_PORT to its port)`,
    );
  }
  const region = (role: RegionRole): RegionTarget => {
    const r = res.regions[role];
    return {
      role,
      region: r.region,
      control: CONTROL_TABLE,
      ...r.tables,
      eventsQueue: r.queues.events,
      eventsDlq: r.queues.eventsDlq,
      ...(r.queues.streamJobFailures ? { streamJobFailures: r.queues.streamJobFailures } : {}),
      // A stack started without its standby (LOCAL_STANDBY=off) has no API there: its side never answers.
      api: r.api ?? `http://127.0.0.1:${env.STANDBY_API_PORT || 3100}`,
    };
  };
  return {
    kind: "local",
    where: `the local stack (API ${api})`,
    // The same variable `npm start` reads for its claim store.
    claimMode: env.CLAIM_MODE === "mrsc" ? "mrsc" : "home",
    regions: { primary: region("primary"), standby: region("standby") },
    authority: { table: CONTROL_TABLE, mode: "single-region", regions: [authorityRegion(env)] },
    // As a stage's outputs carry its PSP, so the scripts speak the stack's dialect (pspFor, the resolver's env).
    tunables: res.psp?.dialect ? { PSP: res.psp.dialect } : {},
    local: { ...res.endpoints, pspUrl: `http://127.0.0.1:${p.psp}` },
  };
}
