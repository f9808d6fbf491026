import { readFileSync } from "node:fs";
import type { RegionRole } from "@eo/core";
import { pspFor } from "../target/psp-access";
import { readOutputsFile, stageTarget } from "../target/stage-target";
import type { Target } from "../target/target";
import { TargetError } from "../target/target";
import { DEFAULT_OUTPUTS, regionFlag } from "../target/target-args";
import type { LoadSettings } from "./load-settings";

/** The usage lines of the stage mode, printed after the generator's own. */
export const STAGE_USAGE = `
against a deployed stage (docs/load-against-a-stage.md):
  npm run load -- --stage <stage> [--outputs <file>] --token <jwt> | --token-file <file> [--confirm-remote] ...
  --stage <stage>         load that stage's API (\`primaryApi\` of its outputs, ${DEFAULT_OUTPUTS} by default)
  --outputs <file>        a copy of the stage's outputs (what \`npx sst deploy\` writes)
  --region <role>         primary (default) or standby: whose API the phones pay through
  --token <jwt>           the caller token every phone sends (or --token-file <file>, or LOAD_CALLER_TOKEN)
  --confirm-remote        required before anything is sent to an address that is not loopback
  --settle-within <s>     how long to wait for every payment to be final after the run (default 180)
  PSP records are read from PspUrl/PspApiKey (\`npx sst shell --stage <stage> -- …\`) or PSP_URL and PSP_API_KEY.`;

/** The stage mode's own flags, taken out of the command line before the generator reads the rest. */
export interface StageFlags {
  stage: string;
  outputs: string;
  region?: RegionRole;
  token?: string;
  tokenFile?: string;
  confirmRemote: boolean;
  settleWithinS?: number;
}

/** Everything a stage run needs, found before anything is sent. */
export interface StagePlan {
  target: Target;
  /** The stage's API, where the phones pay; nothing else of the stage is called. */
  apiUrl: string;
  psp: { url: string; apiKey: string };
  token: string;
  settleWithinMs: number;
}

const VALUED = new Set(["stage", "outputs", "region", "token", "token-file", "settle-within"]);

/**
 * Splits the command line into the stage flags and the rest (the generator's flags); `stage` is undefined when
 * no stage flag was given. Accepts `--flag value` and `--flag=value`.
 */
export function splitStageArgs(argv: string[]): { rest: string[]; stage?: StageFlags } {
  const rest: string[] = [];
  const got = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name, inline] = arg.startsWith("--") ? arg.slice(2).split(/=(.*)/s) : [];
    if (name === "confirm-remote") got.set(name, true);
    else if (name && VALUED.has(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || value.startsWith("--"))
        throw new TargetError(`refused: --${name} needs a value`);
      got.set(name, value);
    } else rest.push(arg);
  }
  if (got.size === 0) return { rest };
  const text = (k: string) => (typeof got.get(k) === "string" ? (got.get(k) as string) : undefined);
  const stage = text("stage")?.trim();
  if (!stage)
    throw new TargetError("refused: --outputs, --token and --confirm-remote go with --stage <stage>");
  const settle = text("settle-within");
  const settleWithinS = settle === undefined ? undefined : Number(settle);
  if (settleWithinS !== undefined && !(settleWithinS >= 1 && settleWithinS <= 3_600))
    throw new TargetError(`refused: --settle-within must be from 1 to 3600 (got ${settle})`);
  return {
    rest,
    stage: {
      stage,
      outputs: text("outputs") ?? DEFAULT_OUTPUTS,
      region: regionFlag(text("region")),
      token: text("token"),
      tokenFile: text("token-file"),
      confirmRemote: got.get("confirm-remote") === true,
      settleWithinS,
    },
  };
}

/** The generator's flags that act through `/_local` (faults, the started stack's caps), which a stage has not. */
function refuseLocalOnly(s: LoadSettings): void {
  const localOnly: Array<[boolean, string]> = [
    [s.url !== undefined, "--url"],
    [s.outage !== undefined, "--psp-outage"],
    [s.latency !== undefined, "--psp-latency"],
    [s.loseReplyRate > 0, "--lose-reply-rate"],
    [s.liftCaps, "--lift-caps"],
  ];
  const given = localOnly.filter(([on]) => on).map(([, flag]) => flag);
  if (given.length > 0)
    throw new TargetError(
      `refused: ${given.join(", ")} act(s) through the local stack's /_local routes; a stage has none (drop them with --stage)`,
    );
}

/** The caller token from the flag, the file or LOAD_CALLER_TOKEN; refused when none or more than one. */
function tokenOf(f: StageFlags, env: NodeJS.ProcessEnv): string {
  const given = [f.token, f.tokenFile, env.LOAD_CALLER_TOKEN || undefined].filter((x) => x !== undefined);
  if (given.length !== 1)
    throw new TargetError(
      "refused: give the caller token once: --token <jwt>, --token-file <file> or LOAD_CALLER_TOKEN",
    );
  let token = f.token ?? env.LOAD_CALLER_TOKEN;
  if (f.tokenFile !== undefined) {
    try {
      token = readFileSync(f.tokenFile, "utf8");
    } catch {
      throw new TargetError(`refused: cannot read the token file ${f.tokenFile}`);
    }
  }
  const trimmed = (token as string).trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]*$/.test(trimmed))
    throw new TargetError("refused: the caller token is not a JWT (header.payload.signature)");
  return trimmed;
}

/** The token as it may be printed: its first characters and its length, never the whole. */
export function maskToken(token: string): string {
  return `${token.slice(0, 6)}… (${token.length} characters)`;
}

/** The stage's API base URL from the outputs' `primaryApi` / `standbyApi`. */
function apiOf(file: string, role: RegionRole): string {
  const outputs = readOutputsFile(file) as Record<string, unknown>;
  const raw = outputs[`${role}Api`];
  if (typeof raw !== "string" || raw === "")
    throw new TargetError(
      `refused: ${file} has no ${role}Api (deploy this version of the app to the stage first)`,
    );
  try {
    const url = new URL(raw);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("not http");
    return raw.replace(/\/+$/, "");
  } catch {
    throw new TargetError(`refused: ${file}'s ${role}Api is not an http(s) URL (${raw})`);
  }
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/** Whether a URL names this machine: only those may be loaded without `--confirm-remote`. */
export function isLoopback(raw: string): boolean {
  return LOOPBACK.has(new URL(raw).hostname);
}

/**
 * Finds the stage's API, the PSP and the caller token, and refuses (TargetError, exit 2) before anything is sent:
 * a flag that needs `/_local`, a missing token, or an address off this machine without `--confirm-remote`.
 */
export function planStageRun(
  s: LoadSettings,
  f: StageFlags,
  env: NodeJS.ProcessEnv = process.env,
): StagePlan {
  refuseLocalOnly(s);
  const target = stageTarget(f.stage, f.outputs);
  const apiUrl = apiOf(f.outputs, f.region ?? "primary");
  const token = tokenOf(f, env);
  const psp = pspFor(target, env);
  const remote = [apiUrl, psp.url].filter((u) => !isLoopback(u));
  if (remote.length > 0 && !f.confirmRemote)
    throw new TargetError(
      `refused: this run would send payments and reads to ${remote.join(" and ")}, off this machine; ` +
        "add --confirm-remote to load that stage (nothing was sent)",
    );
  return { target, apiUrl, psp, token, settleWithinMs: (f.settleWithinS ?? 180) * 1000 };
}
