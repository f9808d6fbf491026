import type { RateLimits } from "@eo/psp";

/** Stripe's caps, which the fake PSP keeps unless told otherwise. */
export const DEFAULT_PSP_RATE_LIMITS: RateLimits = { perAccount: 100, perEndpoint: 25 };

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) {
    throw new Error(
      `${name}=${raw} must be a positive number of requests per second, e.g. ${name}=${fallback}`,
    );
  }
  return n;
}

/**
 * The fake PSP's caps from `FAKE_PSP_ACCOUNT_LIMIT_PER_S` and `FAKE_PSP_ENDPOINT_LIMIT_PER_S`, so that
 * `npm start` (and a load generator that spawns it) can lift or lower them; unset means Stripe's 100 and 25.
 */
export function pspRateLimitsFromEnv(env: NodeJS.ProcessEnv = process.env): RateLimits {
  return {
    perAccount: positive(env, "FAKE_PSP_ACCOUNT_LIMIT_PER_S", DEFAULT_PSP_RATE_LIMITS.perAccount),
    perEndpoint: positive(env, "FAKE_PSP_ENDPOINT_LIMIT_PER_S", DEFAULT_PSP_RATE_LIMITS.perEndpoint),
  };
}
