import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { clock, DynamoRegionControlStore, type RegionRole } from "@eo/core";
import { dynamoSide, type FailoverSides, type RegionSide } from "@eo/core/failover";

// The local stack's side of the failover: it knows `/_local`, which the core does not, and the drills here and
// `npm run failover -- --local` (scripts/) both use it.

/** Where the local stack is: `npm start`'s ports unless flags or the environment say otherwise. */
export interface LocalTargets {
  dynamodb: string;
  apis: Record<RegionRole, string>;
  regions: Record<RegionRole, string>;
  /** The local authority's DynamoDB Local Region (the witness of the stacks' MRSC control table). */
  authorityRegion?: string;
}

/**
 * How a failover against the local stack drains, resumes and verifies: its leases and lag are short, so the
 * waits are seconds (the drills and the fault schedules' nemesis use these).
 */
export const LOCAL_FAILOVER_SETTINGS = {
  canaryTimeoutMs: 20_000,
  drainFloorMs: 1_000,
  // The local runtime's act window: the handlers' control cache (2 s), the longest local act (the 5 s deadline)
  // and the SDK's retries; FAILOVER_ACT_WINDOW_MS shortens it for the fault checker's stacks.
  // Read on use: the fault checker sets it after this module is loaded.
  get actWindowMs() {
    return Number(process.env.FAILOVER_ACT_WINDOW_MS || 8_000);
  },
  leaseWaitMs: 15_000,
  sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)),
  // The stack's clock, which the Regions' gates compare `active_from` with; in a process of its own, a script passes
  // the stack's clock read over `GET /_local/clock` instead (scripts/lib/chaos/region-nemesis.ts).
  now: () => clock.now(),
  rounds: 3,
  verifyHours: 1,
} as const;

const clientIn = (t: LocalTargets, region: string) =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: t.dynamodb,
      region,
      credentials: { accessKeyId: "local", secretAccessKey: "local" },
      maxAttempts: 2,
    }),
  );

/**
 * Both local Regions (their DynamoDB databases directly, their health and jobs through `/_local` on their own port)
 * and the authority, reached from where the operator stands: outside both Regions, as the MRSC table is in AWS.
 */
export function localSides(t: LocalTargets): FailoverSides {
  const authorityRegion = t.authorityRegion ?? "us-east-2";
  const authority = new DynamoRegionControlStore(clientIn(t, authorityRegion), "control");
  const side = (role: RegionRole): RegionSide => {
    const db = clientIn(t, t.regions[role]);
    const api = t.apis[role];
    // A partitioned Region runs, but locally it is cut off from the operator's data-plane calls too, as an AWS
    // Region whose network is split would be from an operator outside it; unless the partition has AWS's shape
    // (`operator_reaches`), where this machine still reaches its tables though its peer and the authority do not.
    const seen = async () => {
      const regions = (await getJson(`${api}/_local/regions`)) as {
        regions?: Record<string, { up?: boolean; partitioned?: boolean; operator_reaches?: boolean }>;
      };
      const r = regions.regions?.[role];
      const up = r?.up === true && (r.partitioned !== true || r.operator_reaches === true);
      return { up, partitioned: r?.partitioned === true };
    };
    const isUp = async () => (await seen()).up;
    const tables = { control: "control", claims: "claims", ledger: "ledger" };
    const inner = dynamoSide(role, t.regions[role], db, tables, {
      health: async () => {
        const { up, partitioned } = await seen();
        return {
          ok: up,
          detail: up
            ? `${api} answers, Region up${partitioned ? " (partitioned, but this machine reaches it)" : ""}`
            : `${api} answers, but the Region is down or partitioned`,
        };
      },
      runJob: (job, event) => runLocalJob(api, role, job, event),
    });
    // Both local Regions are databases of one DynamoDB Local, which never goes down: a Region failed with
    // POST /_local/regions/{region}/fail is as unreachable to this script as a failed AWS Region would be.
    const reachable = async () => {
      if (!(await isUp())) throw new Error(`the ${role} Region is down or partitioned`);
    };
    const copy = new DynamoRegionControlStore(db, tables.control);
    return {
      ...inner,
      readControl: async () => {
        await reachable();
        return copy.read();
      },
      writeControl: async (next) => {
        await reachable();
        return copy.write(next);
      },
    };
  };
  return {
    primary: side("primary"),
    standby: side("standby"),
    authority: {
      where: `the local authority (table control in ${authorityRegion}, outside both Regions)`,
      read: () => authority.read(),
      write: (next) => authority.write(next),
      clock: () => authority.clock(),
    },
  };
}

async function runLocalJob(api: string, role: RegionRole, job: string, event: Record<string, unknown>) {
  const res = await fetch(`${api}/_local/run/${job}`, { method: "POST", body: JSON.stringify(event) });
  const body = (await res.json()) as { result?: Record<string, unknown>; detail?: string };
  if (!res.ok) throw new Error(`${job} in ${role}: HTTP ${res.status} ${body.detail ?? ""}`);
  return body.result ?? {};
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5_000) });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.json();
}
