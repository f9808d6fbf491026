/**
 * The safety switches and the "where" of a function, read strictly: a value outside the allowed ones, or a
 * missing one, stops the function instead of being read as a default. A wrong default here is the
 * dangerous kind of failure (a standby that believes it is active takes writes the active Region cannot see).
 */

/** A configuration the function refuses to run with; the message names the variable and what it accepts. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/** Where the claim store lives: a table per Region with TTL, or one multi-Region strongly consistent table. */
export type ClaimMode = "home" | "mrsc";
/** The role of this function's Region in the deployment. */
export type RegionRole = "primary" | "standby";

export const CLAIM_MODES: readonly ClaimMode[] = ["home", "mrsc"];
export const REGION_ROLES: readonly RegionRole[] = ["primary", "standby"];

/** One of the allowed values of a variable, exactly as written (no trimming, no case folding). */
export function readChoice<T extends string>(env: NodeJS.ProcessEnv, name: string, allowed: readonly T[]): T {
  const raw = env[name];
  if (raw !== undefined && (allowed as readonly string[]).includes(raw)) return raw as T;
  const accepts = allowed.map((a) => `"${a}"`).join(" or ");
  const got = raw === undefined ? "it is not set" : `got "${raw}"`;
  throw new ConfigError(`${name} must be ${accepts} (${got}); refusing to start`);
}

/** A boolean switch: exactly `true` or `false`. */
export function readFlag(env: NodeJS.ProcessEnv, name: string): boolean {
  return readChoice(env, name, ["true", "false"] as const) === "true";
}

/** A variable that has no safe default (a table name, a queue URL, the Region). */
export function readRequired(env: NodeJS.ProcessEnv, name: string): string {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") {
    throw new ConfigError(`${name} is not set; refusing to start rather than guess it`);
  }
  return raw;
}

/** This function's Region role (REGION_ROLE, `primary` or `standby`; anything else throws). */
export function regionRoleOf(env: NodeJS.ProcessEnv = process.env): RegionRole {
  return readChoice(env, "REGION_ROLE", REGION_ROLES);
}

/** The claim store's mode (CLAIM_MODE, `home` or `mrsc`; anything else throws). */
export function claimModeOf(env: NodeJS.ProcessEnv = process.env): ClaimMode {
  return readChoice(env, "CLAIM_MODE", CLAIM_MODES);
}

/** The names among `names` that are unset or empty, for a script to refuse with one message. */
export function missingEnv(env: NodeJS.ProcessEnv, names: readonly string[]): string[] {
  return names.filter((n) => env[n] === undefined || env[n]?.trim() === "");
}
