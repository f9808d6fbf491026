import type { DynamoDBRecord } from "aws-lambda";
import type { Poller } from "../pollers/poller";
import { startStreamPoller } from "../pollers/stream-poller";
import type { Role } from "./replication-types";

/** Where the replicator reads: both Regions' streams of every replicated table. */
export interface ReplicaStreamOptions {
  endpoint: string;
  regions: Record<Role, string>;
  tables: string[];
  pollIntervalMs: number;
  /** Takes one page of a table's stream in one Region, in stream order. */
  read: (table: string, role: Role, records: DynamoDBRecord[]) => void;
}

/** Starts reading every table's stream in both Regions from its trim horizon (the tables are fresh). */
export async function startReplicaStreams(o: ReplicaStreamOptions): Promise<Poller[]> {
  const started: Poller[] = [];
  try {
    for (const table of o.tables) {
      for (const role of ["primary", "standby"] as const) {
        const poller = await startStreamPoller({
          name: `replicator-${table}-${role}`,
          endpoint: o.endpoint,
          region: o.regions[role],
          tableName: table,
          reader: "replication",
          startingPosition: "TRIM_HORIZON",
          pollIntervalMs: o.pollIntervalMs,
          handler: async (event) => o.read(table, role, event.Records),
        });
        started.push(poller);
      }
    }
    return started;
  } catch (err) {
    await Promise.all(started.map((p) => p.stop()));
    throw err;
  }
}
