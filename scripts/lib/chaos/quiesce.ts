import { advanceWhenPspIdle } from "./advance-when-psp-idle";
import type { ChaosApi } from "./chaos-api";
import { readDepths } from "./observe";
import { resumeReplication } from "./region-nemesis";
import { type ChaosResources, type RegionsView, runningRoles } from "./resources";
import { CHAOS_TIMING } from "./run-schedule";

/** How the stack looked on the last pass of the quiesce. */
export interface QuietReport {
  quiet: boolean;
  passes: number;
  ms: number;
}

const QUIET_WITHIN_MS = 60_000;

/**
 * Lets the stack finish what the schedule left: faults cleared, the clock moved past every deadline and the
 * PSP's "not found" settle time (and, later, the hours a saved 5xx waits), then the resolver and the sweeps run (as their schedules would) until the
 * resolver's index, the outbox and the events queues of both Regions are empty, and nothing is left to replicate,
 * twice in a row.
 */
export async function quiesce(api: ChaosApi, withinMs = QUIET_WITHIN_MS): Promise<QuietReport> {
  const started = Date.now();
  await api.local("DELETE", "/faults");
  await resumeReplication(api);
  await advanceWhenPspIdle(api, 700);
  const { replication } = await api.local<RegionsView>("GET", "/regions");
  // With two Regions, the second look comes after a lag and a stream poll, so a last write has been read and shipped.
  const apartMs = replication.running ? replication.lag_ms + 250 : 150;
  let quietPasses = 0;
  let passes = 0;
  while (Date.now() - started < withinMs) {
    passes += 1;
    await api.local("POST", "/run/resolver");
    await sweepsEverywhere(api);
    quietPasses = (await isQuiet(api)) ? quietPasses + 1 : 0;
    // Quiet twice, a little apart: a worker that just took the last message has had its time to finish it.
    if (quietPasses >= 2) return { quiet: true, passes, ms: Date.now() - started };
    await sleep(quietPasses > 0 ? apartMs : 200);
    // A settle time counted by the domain clock (a lookup that found nothing) needs the clock to move on; a saved
    // 5xx waits hours from its first lookup, which the first passes have made.
    if (passes % 16 === 0) await advanceWhenPspIdle(api, CHAOS_TIMING.saved5xxSettleS + 100);
    else if (passes % 8 === 0) await advanceWhenPspIdle(api, 700);
  }
  return { quiet: false, passes, ms: Date.now() - started };
}

/**
 * The sweeps cron runs in both Regions, as the stacks schedule it: the active one re-sends its outbox, and each routes
 * what its events DLQ holds (a partition's refusals) to the Region the authority names.
 */
async function sweepsEverywhere(api: ChaosApi): Promise<void> {
  const res = await api.local<ChaosResources>("GET", "/resources");
  for (const role of runningRoles(res)) {
    const url = res.regions[role].api;
    if (url)
      await fetch(`${new URL(url).origin}/_local/run/sweeps`, { method: "POST" }).then((r) => r.text());
  }
}

async function isQuiet(api: ChaosApi): Promise<boolean> {
  const regions = await api.local<RegionsView>("GET", "/regions");
  // Both Regions converge before the checker compares them: nothing left for the replication to ship.
  if (regions.replication.idle === false) return false;
  const backlog = await api.local<{ total: number }>("GET", "/backlog");
  if (backlog.total > 0) return false;
  const { queues, outboxLeft } = await readDepths(api);
  // Every running Region's events queue and DLQ: each Region's sweeps route its DLQ to the active Region's queue (a
  // partition's refusals). Only a dead letter kept for a person stays; none is expected here, so a run that has one
  // waits out the quiesce, and the checker reports it.
  const waiting = Object.entries(queues).filter(([name]) => /(^|\.)(events|eventsDlq)$/.test(name));
  return outboxLeft === 0 && waiting.every(([, n]) => n === 0);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
