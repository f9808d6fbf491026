import type { DedupPolicy } from "./logical-dedup";

/** The worker's notification settings, from plain environment variables (the stacks set EMAIL_FROM). */
export interface NotifyConfig {
  emailFrom: string;
  policy: DedupPolicy;
}

/**
 * Reads EMAIL_FROM, PUSH_DEDUP_WINDOW_S (default 60: the same buyer, merchant and amount within a minute is one
 * "paid" alert) and PUSH_CAP_PER_HOUR (default 30 alerts per buyer per hour).
 */
export function loadNotifyConfig(env: NodeJS.ProcessEnv = process.env): NotifyConfig {
  return {
    emailFrom: env.EMAIL_FROM ?? "receipts@example.com",
    policy: {
      windowS: positive(env, "PUSH_DEDUP_WINDOW_S", 60),
      capPerHour: positive(env, "PUSH_CAP_PER_HOUR", 30),
    },
  };
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${name}=${raw} must be a positive number`);
  return n;
}
