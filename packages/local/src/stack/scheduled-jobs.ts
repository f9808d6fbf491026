import { type ScheduledJob, startScheduler } from "../pollers/scheduler";

// A job whose schedule is off still answers POST /_local/run/{job}.
const NEVER = 2 ** 40;

/** The cron handlers the scheduler runs, as sst.aws.CronV2 does in AWS. */
export interface JobRunner {
  runNow(name: string, event?: unknown): Promise<unknown>;
  names(): string[];
  stop(): Promise<void>;
}

let resolverImport: Promise<typeof import("@eo/functions/cron/resolver")> | undefined;
/** The resolver's module, imported once (see load-handler.ts for why not on every run). */
const resolverModule = () => {
  resolverImport ??= import("@eo/functions/cron/resolver");
  return resolverImport;
};

/**
 * Schedules the resolver and the sweeps on the same handler modules that Lambda runs. Runs of one job overlap, as
 * EventBridge's can (the jobs are safe to: every move they make is a compare-and-set); `noOverlap` serialises them.
 */
export function scheduledJobs(
  opts: { resolverEveryMs: number; noOverlap?: boolean },
  more: Record<string, ScheduledJob> = {},
  resolver: (event?: unknown) => Promise<unknown> = async () => (await resolverModule()).handler(),
): JobRunner {
  const jobs = {
    ...more,
    resolver: { everyMs: opts.resolverEveryMs > 0 ? opts.resolverEveryMs : NEVER, run: resolver },
  };
  const scheduler = startScheduler(jobs, { noOverlap: opts.noOverlap });
  return {
    runNow: (name, event) => scheduler.runNow(name, event),
    names: () => scheduler.names(),
    stop: async () => void (await scheduler.stop()),
  };
}
