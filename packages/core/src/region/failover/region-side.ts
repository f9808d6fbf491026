import type { RegionRole } from "../../config/switches";
import type { RegionControl } from "../region-control";
import type { VerifiedRow } from "./judge-charge";

/**
 * One reply of the authority with its `Date` header: what the authority's side said the time was (whole seconds,
 * as HTTP gives it), and this machine's clock when the request left and when the reply came back.
 */
export interface ClockReading {
  serverDateMs: number;
  sentMs: number;
  receivedMs: number;
}

/** The one authority both Regions read: where it is, and its record. */
export interface AuthoritySide {
  /** Where it lives, for the output: `MRSC table effectively-once-Control (us-east-1, us-west-2; witness us-east-2)`. */
  where: string;
  /** The record, strongly consistent; throws when the authority cannot be reached. */
  read(): Promise<RegionControl | undefined>;
  /** Writes `next` if the record's epoch is still below it; false if a newer decision is there. */
  write(next: RegionControl): Promise<boolean>;
  /** The authority's side of the clock (its reply's `Date`), to stamp `active_from` on; absent where unknown. */
  clock?(): Promise<ClockReading | undefined>;
}

/** What the failover script can learn about and do to one Region, locally or in AWS (data-plane calls only). */
export interface RegionSide {
  role: RegionRole;
  /** The AWS Region name, for the output. */
  region: string;
  /** The Region's own copy of the control, where it keeps one (locally); nothing acts on it but a counterfactual. */
  readControl?(): Promise<RegionControl | undefined>;
  /** Keeps the Region's own copy current where it has one; false if a newer one is there. */
  writeControl?(next: RegionControl): Promise<boolean>;
  /** Whether the Region answers: its tables, and locally its API. */
  health(): Promise<{ ok: boolean; detail: string }>;
  /** Writes a canary item into the ledger (a global table), to time its replication. */
  writeCanary(id: string, at: number): Promise<void>;
  /** Whether the canary has arrived here by replication. */
  hasCanary(id: string): Promise<boolean>;
  deleteCanary(id: string): Promise<void>;
  /**
   * AWS only: the recent maximum of the ledger's `ReplicationLatency` to `receivingRegion` (CloudWatch, the last
   * 15 minutes), which the drain also waits 10 × out; undefined where there is no such metric (locally).
   */
  recentReplicationLatencyMs?(receivingRegion: string): Promise<number | undefined>;
  /** Outbox items not yet relayed (the sparse index's outbox entries, every shard). */
  outboxBacklog(): Promise<number>;
  /** Claims still in progress whose lease has not ended. */
  openClaims(now: number): Promise<number>;
  /** Payments whose outcome is not known yet (PENDING or UNKNOWN). */
  unknownPayments(): Promise<number>;
  /** The ledger's payment row, merged with its state facts; undefined when there is none. */
  payment(paymentId: string): Promise<VerifiedRow | undefined>;
  /** Runs the Region's resolver now and returns its report. */
  runResolver(): Promise<Record<string, unknown>>;
  /** Runs the Region's sweeps now, re-sending the outbox whatever its age. */
  runSweeps(): Promise<Record<string, unknown>>;
}

/** Both Regions and the authority, as the failover command sees them. */
export type FailoverSides = Record<RegionRole, RegionSide> & { authority: AuthoritySide };
