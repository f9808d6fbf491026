import { type FailoverOutcome, type FailoverSides, Progress, runFailover } from "@eo/core/failover";
import { LOCAL_FAILOVER_SETTINGS, localSides } from "../../../packages/local/src/region/local-sides";
import { clockReadOver } from "../failover/local-targets";
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
 * the clients follow (a failed Region's health check moves DNS). A Region already out is brought back first, by
 * itself, so that one always answers.
 */
export async function failActiveRegion(
  api: ChaosApi,
  history: History,
  operatorClockOffMs = 0,
): Promise<void> {
  const to = await cutActiveRegion(api, history, "fail", operatorClockOffMs);
  if (to) api.retarget(to);
}

/**
 * The active Region is partitioned: it keeps running, but reaches neither the authority nor the other Region. The
 * on-call engineer fails over (forced), and the phones keep their old routing (to the cut-off Region) until a
 * later `reroute` step: they meet a Region that must refuse them on its own. With `operatorReaches`, AWS's shape
 * of a partition: the operator's machine still reaches the cut-off Region's tables, and `--force` must still be
 * honoured (no canary, no drain: issue 40, item 4).
 */
export async function partitionActiveRegion(
  api: ChaosApi,
  history: History,
  operatorReaches = false,
  operatorClockOffMs = 0,
): Promise<void> {
  const how = operatorReaches ? "partition-operator-reaches" : "partition";
  await cutActiveRegion(api, history, how, operatorClockOffMs);
}

type Cut = "fail" | "partition" | "partition-operator-reaches";

const CUTS: Record<Cut, { path: string; body?: unknown; kind: string; said: string }> = {
  fail: { path: "fail", kind: "region_fail", said: "failed" },
  partition: { path: "partition", kind: "region_partition", said: "cut off" },
  "partition-operator-reaches": {
    path: "partition",
    body: { operator_reaches: true },
    kind: "region_partition_operator_reaches",
    said: "cut off from its peer and the authority (the operator still reaches it)",
  },
};

async function cutActiveRegion(api: ChaosApi, history: History, how: Cut, operatorClockOffMs: number) {
  await bringBackRegions(api, history);
  const { res, view } = await readRegions(api);
  const from = activeRole(view);
  const to = otherRole(from);
  const toUrl = res.regions[to].api;
  if (!toUrl) throw new Error("a failover step needs both Regions: start the stack with its standby");
  const cut = CUTS[how];
  await api.local("POST", `/regions/${from}/${cut.path}`, cut.body);
  history.fired(
    cut.kind,
    `${from} ${cut.said} with ${view.replication.pending} change(s) not yet replicated`,
  );
  await api.local("POST", `/psp/webhooks-to/${to}`);
  const off = operatorClockOffMs;
  const laptop = off ? ` (the on-call's clock ${Math.abs(off) / 1000} s ${off < 0 ? "slow" : "fast"})` : "";
  await onCall(api, res, history, to, true, `failover ${from} → ${to}${laptop}`, off);
  return toUrl;
}

/** Failed Regions come back, and cut-off ones heal, by themselves: nobody runs the failover command for them. */
export async function bringBackRegions(api: ChaosApi, history: History): Promise<void> {
  const { res, view } = await readRegions(api);
  for (const r of ROLES.filter((r) => res.regions[r].api)) {
    const region = view.regions[r];
    if (region && !region.up) {
      await api.local("POST", `/regions/${r}/recover`);
      history.add({ process: "nemesis", type: "fault", op: `region_recover ${r}` });
    }
    if (region?.partitioned) {
      await api.local("POST", `/regions/${r}/heal`);
      history.add({ process: "nemesis", type: "fault", op: `region_heal ${r}` });
    }
  }
}

/** The on-call engineer runs the failover command again, late: it names the active Region, so it only checks. */
export async function failoverAgain(api: ChaosApi, history: History): Promise<void> {
  const { res, view } = await readRegions(api);
  await onCall(api, res, history, activeRole(view), false, `failover → ${activeRole(view)} again`);
}

/** Points the clients at the active Region's API: the phones learn the new routing. */
export async function followActiveRegion(api: ChaosApi): Promise<void> {
  const { res, view } = await readRegions(api);
  const url = res.regions[activeRole(view)].api;
  if (url && runningRoles(res).length > 1) api.retarget(url);
}

async function onCall(
  api: ChaosApi,
  res: ChaosResources,
  history: History,
  to: Role,
  force: boolean,
  op: string,
  operatorClockOffMs = 0,
) {
  const out = await failover(api, res, to, force, operatorClockOffMs);
  history.add({
    process: "on-call",
    type: out.code === 0 || out.code === 3 ? "ok" : "info",
    op,
    detail: `${out.mode}, epoch ${out.epoch ?? "?"}, exit ${out.code}`,
  });
}

// The failover's own verification lists the PSP's charges of the last hour by the wall clock; the chaos clock
// runs ahead of it, so that list would be every charge of the stack's life. The checker judges lost payments.
async function failover(
  api: ChaosApi,
  res: ChaosResources,
  to: Role,
  force: boolean,
  operatorClockOffMs: number,
): Promise<FailoverOutcome> {
  const origin = (r: Role) => new URL(res.regions[r].api ?? "http://127.0.0.1:0").origin;
  const sides = localSides({
    dynamodb: res.endpoints.dynamodb,
    apis: { primary: origin("primary"), standby: origin("standby") },
    regions: { primary: res.regions.primary.region, standby: res.regions.standby.region },
  });
  const operator = operatorsView(sides, await stackClock(api), operatorClockOffMs);
  return runFailover(
    new Progress(() => undefined),
    operator.sides,
    { to, dryRun: false, force },
    { ...LOCAL_FAILOVER_SETTINGS, now: operator.now },
  );
}

/**
 * The failover as a machine whose clock is `offMs` off the stack's (negative: slow) runs it: its own `now`, and the
 * authority's clock as it reads it, the reply's `Date` on the authority's (the stack's) clock and the send and the
 * receipt on its own. The authority's `Date` comes on the process's clock (DynamoDB Local's, or the model's), which
 * the stack's runs ahead of by the schedules' `later` steps.
 */
function operatorsView(sides: FailoverSides, stackNow: () => number, offMs: number) {
  const read = sides.authority.clock;
  if (!offMs || !read) return { sides, now: stackNow };
  const clock = async () => {
    const r = await read();
    const ahead = stackNow() - Date.now();
    if (!r) return r;
    return {
      serverDateMs: r.serverDateMs + ahead,
      sentMs: r.sentMs + ahead + offMs,
      receivedMs: r.receivedMs + ahead + offMs,
    };
  };
  return { sides: { ...sides, authority: { ...sides.authority, clock } }, now: () => stackNow() + offMs };
}

/**
 * The stack's clock, as the on-call engineer's machine reads it (the stack may run in another process). Schedules
 * move the stack's clock forward (`later`): a failover stamped on this process's clock would put `active_from` an
 * hour before the Regions' now, and a "not found" that may lag would count as final at once (a false VOID, found by
 * the real-world nemesis; in AWS there is one clock). The offset is read once per failover.
 */
async function stackClock(api: ChaosApi): Promise<() => number> {
  const read = async () => (await api.local<{ now: number }>("GET", "/clock")).now;
  return (await clockReadOver(read)) ?? Date.now;
}

/** Replication resumes after a stall (a no-op when it was not paused), as the Regions that came back reconnect. */
export async function resumeReplication(api: ChaosApi, history?: History): Promise<void> {
  const { replication } = await api.local<{ replication: { paused?: boolean } }>("GET", "/regions");
  if (!replication.paused) return;
  await api.local("POST", "/replication", { paused: false });
  history?.add({ process: "nemesis", type: "fault", op: "replication_resume" });
}
