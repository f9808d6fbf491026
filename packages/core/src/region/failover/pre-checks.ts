import type { RegionRole } from "../../config/switches";
import type { Progress } from "./progress";
import type { RegionSide } from "./region-side";

/** The numbers the pre-checks measured, for the plan, the summary and the JSON report. */
export interface Numbers {
  lag_ms?: number;
  /** AWS: the ledger's recent maximum ReplicationLatency to the target (CloudWatch). */
  replication_latency_max_ms?: number;
  outbox_backlog?: number;
  open_claims?: number;
  unknown_in_old?: number;
  unknown_in_target?: number;
}

/** Measures replication lag from `from` to `to` with a canary item in the ledger (a global table). */
export async function measureLag(
  from: RegionSide,
  to: RegionSide,
  timeoutMs: number,
  sleep: (ms: number) => Promise<void>,
): Promise<number> {
  const id = `failover-${Date.now()}-${Math.random().toString(16).slice(2, 8)}`;
  const started = Date.now();
  await from.writeCanary(id, started);
  try {
    while (Date.now() - started < timeoutMs) {
      if (await to.hasCanary(id)) return Date.now() - started;
      await sleep(50);
    }
    throw new Error(`a canary written in ${from.region} did not reach ${to.region} within ${timeoutMs} ms`);
  } finally {
    await from.deleteCanary(id).catch(() => undefined);
  }
}

/** The target's health and the old Region's backlog; every number is printed whether or not it passes. */
export async function preChecks(
  p: Progress,
  sides: Record<RegionRole, RegionSide>,
  to: RegionRole,
  from: RegionRole,
  oldReachable: boolean,
): Promise<{ ok: boolean; numbers: Numbers }> {
  const numbers: Numbers = {};
  const target = sides[to];
  const healthy = await p.step(`target ${to} (${target.region}) healthy`, async () => {
    const h = await target.health();
    numbers.unknown_in_target = await target.unknownPayments();
    return { ok: h.ok, detail: `${h.detail}; ${numbers.unknown_in_target} payment(s) unknown there` };
  });
  if (!oldReachable) {
    p.say(`old ${from} (${sides[from].region}) does not answer: its backlog cannot be counted`);
    return { ok: Boolean(healthy), numbers };
  }
  const counted = await p.step(`old ${from} backlog counted`, async () => {
    const old = sides[from];
    numbers.outbox_backlog = await old.outboxBacklog();
    numbers.open_claims = await old.openClaims(Date.now());
    numbers.unknown_in_old = await old.unknownPayments();
    return {
      ok: true,
      detail: `outbox ${numbers.outbox_backlog} not yet relayed, ${numbers.open_claims} claim(s) in progress, ${numbers.unknown_in_old} payment(s) unknown`,
    };
  });
  return { ok: Boolean(healthy) && Boolean(counted), numbers };
}
