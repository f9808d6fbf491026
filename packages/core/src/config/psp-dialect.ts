import { ConfigError } from "./switches";

/** Which PSP a stage talks to: the fake's own dialect (`generic`, the default) or Stripe's, through its SDK. */
export type PspDialect = "generic" | "stripe";

export const PSP_DIALECTS: readonly PspDialect[] = ["generic", "stripe"];

/** Where Stripe's API is when PSP_URL names no other place (a stage on Stripe test or live mode). */
export const STRIPE_API_URL = "https://api.stripe.com";

/**
 * The stage's PSP dialect (env `PSP`): unset or empty is `generic`, as before issue 30; anything but the two names
 * throws, because a typo that silently fell back to the other dialect would send real cards to the wrong API.
 */
export function pspDialectOf(env: NodeJS.ProcessEnv = process.env): PspDialect {
  const raw = env.PSP;
  if (raw === undefined || raw === "") return "generic";
  if ((PSP_DIALECTS as readonly string[]).includes(raw)) return raw as PspDialect;
  throw new ConfigError(
    `PSP must be "generic" or "stripe" (got "${raw}"); refusing to start rather than guess which PSP to charge`,
  );
}

/** Where the Stripe SDK is pointed: the host, port and protocol of a URL (the local fake, or Stripe's API). */
export function stripeEndpointOf(url: string): { host: string; port: number; protocol: "http" | "https" } {
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new ConfigError(`PSP_URL=${url} must be an http(s) URL for the Stripe SDK`);
  const protocol = u.protocol === "http:" ? "http" : "https";
  return { host: u.hostname, port: u.port ? Number(u.port) : protocol === "http" ? 80 : 443, protocol };
}
