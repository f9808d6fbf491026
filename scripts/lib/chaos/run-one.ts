import { randomBytes } from "node:crypto";
import type { ChaosApi } from "./chaos-api";
import { checkRun } from "./checker";
import type { RunRecord } from "./history";
import { observe, type PspCharge } from "./observe";
import { quiesce } from "./quiesce";
import { bringBackRegions, followActiveRegion } from "./region-nemesis";
import { runSchedule } from "./run-schedule";
import type { ClientSwitches, Schedule } from "./schedule";

/** The server-side guard switches (environment variables) a stack was started with, for the record. */
export function serverSwitches(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.keys(env).filter((k) => k.startsWith("EO_TEST_UNSAFE_") && env[k] === "1");
}

/** Plays one schedule on a stack, lets it quiesce, and judges it: the run's whole record, violations included. */
export async function runOne(
  api: ChaosApi,
  schedule: Schedule,
  switches: ClientSwitches = {},
  server: string[] = serverSwitches(),
): Promise<RunRecord> {
  const runId = randomBytes(4).toString("hex");
  const before = new Set((await api.local<PspCharge[]>("GET", "/psp/charges")).map((c) => c.id));
  const t0 = Date.now();
  const { history, view } = await runSchedule(api, schedule, runId, switches);
  const t1 = Date.now();
  // A Region still out comes back by itself before the quiesce (its last writes replicate, last writer wins), and the
  // phones learn the routing at last; nobody runs the failover command for it.
  await bringBackRegions(api, history);
  await followActiveRegion(api);
  const quiet = await quiesce(api);
  const t2 = Date.now();
  const heard = history.entries.flatMap((e) => (e.payment_id ? [e.payment_id] : []));
  const obs = await observe(api, view, heard, before);
  const timing = {
    play_ms: t1 - t0,
    quiesce_ms: t2 - t1,
    observe_ms: Date.now() - t2,
    quiesce_passes: quiet.passes,
  };
  if (process.env.CHAOS_VERBOSE) console.log(JSON.stringify(timing));
  const violations = checkRun(view, history.entries, obs);
  if (!quiet.quiet)
    violations.push({ check: "quiesced", reason: `the stack was not quiet after ${quiet.ms} ms` });
  return {
    schedule,
    switches: { ...switches, server },
    history: history.entries,
    faultsFired: history.faultsFired,
    violations,
    timing,
    final: {
      charges: obs.charges,
      payments: Object.fromEntries(
        [...obs.payments].map(([id, p]) => [id, { owner: p.owner, state: p.row?.state }]),
      ),
      merchants: obs.merchants,
      screens: obs.screens,
      backlog: obs.backlog,
      queues: obs.queues,
    },
  };
}
