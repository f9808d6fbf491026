import { type ScheduledJob, startScheduler } from "../pollers/scheduler";

// A job whose schedule is off still answers POST /_local/run/{job}.
const NEVER = 2 ** 40;

/** The cron handlers the scheduler runs, as sst.aws.CronV2 does in AWS. */
export interface JobRunner {
  runNow(name: string): Promise<unknown>;
  names(): string[];
  stop(): Promise<void>;
}

/** Schedules the resolver and the sweeps on the same handler modules that Lambda runs. */
export function scheduledJobs(
  opts: { resolverEveryMs: number },
  more: Record<string, ScheduledJob> = {},
): JobRunner {
  const scheduler = startScheduler({
    ...more,
    resolver: {
      everyMs: opts.resolverEveryMs > 0 ? opts.resolverEveryMs : NEVER,
      run: async () => (await import("@eo/functions/cron/resolver")).handler(),
    },
  });
  return {
    runNow: (name) => scheduler.runNow(name),
    names: () => scheduler.names(),
    stop: async () => void (await scheduler.stop()),
  };
}
