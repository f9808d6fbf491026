import { LOCAL_FAILOVER_SETTINGS, localSides } from "../failover/local-sides";
import { Progress } from "../failover/progress";
import { type FailoverOutcome, runFailover } from "../failover/run-failover";
import type { ChaosApi } from "./chaos-api";
import type { History } from "./history";
import {
  activeRole,
  type ChaosResources,
  otherRole,
  ROLES,
  type Role,
  readRegions,
  runningRoles,
} from "./resources";

/**
 * The active Region fails mid-replication and the on-call engineer fails over, as the runbook says: the PSP's
 * webhooks are pointed at the other Region, `npm run failover -- --to <other> --force` runs (the same code), and
 * the clients are sent there. A Region already down is brought back first, so that one always answers.
 */
export async function failActiveRegion(api: ChaosApi, history: History): Promise<void> {
  await recoverRegions(api, history);
  const { res, view } = await readRegions(api);
  const from = activeRole(view);
  const to = otherRole(from);
  const toUrl = res.regions[to].api;
  if (!toUrl) throw new Error("a failover step needs both Regions: start the stack with its standby");
  await api.local("POST", `/regions/${from}/fail`);
  history.fired(
    "region_fail",
    `${from} failed with ${view.replication.pending} change(s) not yet replicated`,
  );
  await api.local("POST", `/psp/webhooks-to/${to}`);
  const out = await failover(res, to, true);
  history.add({
    process: "on-call",
    type: out.code === 0 ? "ok" : "info",
    op: `failover ${from} → ${to}`,
    detail: `${out.mode}, epoch ${out.epoch ?? "?"}, exit ${out.code}`,
  });
  api.retarget(toUrl);
}

/** Brings back every failed Region and fences it (the failover command run again before it takes traffic). */
export async function recoverRegions(api: ChaosApi, history: History): Promise<void> {
  const { res, view } = await readRegions(api);
  const down = ROLES.filter((r) => res.regions[r].api && !view.regions[r]?.up);
  if (down.length === 0) return;
  for (const r of down) {
    await api.local("POST", `/regions/${r}/recover`);
    history.add({ process: "nemesis", type: "fault", op: `region_recover ${r}` });
  }
  const out = await failover(res, activeRole(view), false);
  history.add({
    process: "on-call",
    type: out.code === 0 ? "ok" : "info",
    op: `failover → ${activeRole(view)} again`,
    detail: `${out.mode}, epoch ${out.epoch ?? "?"}, exit ${out.code}`,
  });
}

/** Points the clients at the active Region's API: a run starts where the last one's failover left the stack. */
export async function followActiveRegion(api: ChaosApi): Promise<void> {
  const { res, view } = await readRegions(api);
  const url = res.regions[activeRole(view)].api;
  if (url && runningRoles(res).length > 1) api.retarget(url);
}

// The failover's own verification lists the PSP's charges of the last hour by the wall clock; the chaos clock
// runs ahead of it, so that list would be every charge of the stack's life. The checker judges lost payments.
async function failover(res: ChaosResources, to: Role, force: boolean): Promise<FailoverOutcome> {
  const origin = (r: Role) => new URL(res.regions[r].api ?? "http://127.0.0.1:0").origin;
  const sides = localSides({
    dynamodb: res.endpoints.dynamodb,
    apis: { primary: origin("primary"), standby: origin("standby") },
    regions: { primary: res.regions.primary.region, standby: res.regions.standby.region },
  });
  return runFailover(
    new Progress(() => undefined),
    sides,
    { to, dryRun: false, force },
    LOCAL_FAILOVER_SETTINGS,
  );
}
