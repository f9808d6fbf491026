import type { FailoverSides, RegionSide } from "@eo/core/failover";
import type { RegionControl } from "../../../packages/core/src";

/** How the in-memory sides differ from a healthy pair: CloudWatch's figure, a job's answer, a lost fence reply. */
export interface MemoryOptions {
  cloudwatchMs?: number;
  /** What the Regions' jobs answer (default `{}`: nothing to do). */
  job?: Record<string, unknown>;
  /** The authority writes the fence but its reply is lost: the SDK's retry fails its condition (false). */
  replyLost?: boolean;
  /** The authority's clock (its reply's `Date`, whole seconds as HTTP prints it) this far ahead of this machine's. */
  authorityAheadMs?: number;
}

/**
 * Both Regions and the authority in memory (no AWS, no emulators): the failover's own arithmetic and answers are
 * what an on-call engineer relies on, and these show them in milliseconds.
 */
export function memorySides(o: MemoryOptions = {}): { sides: FailoverSides; written: RegionControl[] } {
  let record: RegionControl | undefined = { active: "primary", epoch: 1, updated_at: 0, reason: "initial" };
  const written: RegionControl[] = [];
  const canaries = new Set<string>();
  const side = (role: "primary" | "standby"): RegionSide => ({
    role,
    region: role === "primary" ? "us-east-1" : "us-west-2",
    health: async () => ({ ok: true, detail: "in memory" }),
    writeCanary: async (id) => void canaries.add(id),
    hasCanary: async (id) => canaries.has(id),
    deleteCanary: async (id) => void canaries.delete(id),
    outboxBacklog: async () => 0,
    openClaims: async () => 0,
    unknownPayments: async () => 0,
    payment: async () => ({ state: "SUCCEEDED", amount: 100, currency: "EUR" }),
    runResolver: async () => o.job ?? {},
    runSweeps: async () => o.job ?? {},
    ...(o.cloudwatchMs === undefined ? {} : { recentReplicationLatencyMs: async () => o.cloudwatchMs }),
  });
  const write = async (next: RegionControl) => {
    if (record && record.epoch >= next.epoch) return false;
    record = next;
    written.push(next);
    return true;
  };
  return {
    written,
    sides: {
      primary: side("primary"),
      standby: side("standby"),
      authority: {
        where: "memory",
        read: async () => record,
        // The first attempt lands, its reply is lost, the retry meets its own write: `epoch < :epoch` fails.
        write: async (next) => (o.replyLost ? (await write(next)) && write(next) : write(next)),
        ...(o.authorityAheadMs === undefined
          ? {}
          : { clock: async () => clockAhead(o.authorityAheadMs ?? 0) }),
      },
    },
  };
}

function clockAhead(aheadMs: number) {
  const sentMs = Date.now();
  return { serverDateMs: Math.floor((sentMs + aheadMs) / 1000) * 1000, sentMs, receivedMs: Date.now() };
}
