import type { RegionRole } from "@eo/core";

/** One Region of the target: its AWS Region name and the resources the operator scripts reach there. */
export interface RegionTarget {
  role: RegionRole;
  region: string;
  /** The authority's table as this Region names it (the same name in both Regions). */
  control: string;
  claims: string;
  ledger: string;
  consumer: string;
  eventsQueue: string;
  eventsDlq: string;
  /**
   * The stream job's sink and failure queue (`npm run recompute-totals`); absent from a stage's outputs written
   * before issue 41, and the recompute then refuses.
   */
  totals?: string;
  streamJobFailures?: string;
  /** The Region's scheduled functions (a stage), invoked by name; the local stack runs them through `/_local/run`. */
  resolver?: string;
  sweeps?: string;
  /** The local stack only: the Region's API, which serves `/_local/*`. */
  api?: string;
}

/** Where the authority (the active Region and its epoch) lives, as the stage outputs' `failover.authority` says. */
export interface AuthorityTarget {
  table: string;
  mode: "mrsc" | "single-region";
  /** The Regions where it can be read and written: both replicas (MRSC), or the one Region that holds it. */
  regions: string[];
  witness?: string;
}

/** The deployment an operator script acts on: the running local stack, or a deployed stage (both Regions). */
export interface Target {
  kind: "local" | "stage" | "outputs-file";
  /** For the first progress line: `the local stack (API http://127.0.0.1:3000)`, `stage production (.sst/outputs.json)`. */
  where: string;
  stage?: string;
  claimMode: "home" | "mrsc";
  regions: Record<RegionRole, RegionTarget>;
  authority: AuthorityTarget;
  /** The handlers' tunables as the deployed functions read them (env names), so a script acts with the same numbers. */
  tunables: Record<string, string>;
  /** The local stack only: the emulators' endpoints and the fake PSP's URL. */
  local?: { dynamodb: string; sqs: string; pspUrl: string };
}

/** A refusal before anything is touched: bad usage, or a target that cannot be found (exit 2). */
export class TargetError extends Error {}

/** The other Region's role. */
export const otherRole = (r: RegionRole): RegionRole => (r === "primary" ? "standby" : "primary");
