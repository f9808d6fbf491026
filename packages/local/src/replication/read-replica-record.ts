import type { DynamoDBRecord } from "aws-lambda";
import { itemKey } from "./item-identity";
import type { ReplicaVersions } from "./replica-versions";
import { type ItemChange, type ItemImage, otherRole, type Role } from "./replication-types";
import type { WriteClock } from "./write-time";

/** What reading one table's stream in one Region needs. */
export interface RecordContext {
  table: string;
  role: Role;
  versions: ReplicaVersions;
  clock: WriteClock;
  jitter: (change: { table: string; keys: ItemImage; from: Role }) => number;
}

/**
 * Reads one record from a Region's stream: a write made there becomes a change for the other Region; the echo of
 * the replicator's own apply ships nothing, unless it overwrote a later write, which is then re-applied (a repair).
 */
export function readReplicaRecord(record: DynamoDBRecord, c: RecordContext): ItemChange | undefined {
  const keys = record.dynamodb?.Keys;
  if (!keys) throw new Error(`stream record ${record.eventID} has no Keys`);
  const key = itemKey(c.table, keys);
  // REMOVE covers TTL deletes too: toLambdaRecord turns DynamoDB Local's UNKNOWN_TO_SDK_VERSION into REMOVE.
  const image = record.eventName === "REMOVE" ? undefined : record.dynamodb?.NewImage;
  const taken = c.versions.takeEcho(key, image);
  if (taken) {
    const lost = taken.overwrote;
    if (!lost) return undefined;
    return { table: c.table, from: c.role, to: c.role, key, keys, ...lost, jitterMs: 0, repair: true };
  }
  const writtenAt = c.clock.stamp();
  c.versions.wroteHere(key, { image, writtenAt });
  const jitterMs = c.jitter({ table: c.table, keys, from: c.role });
  return { table: c.table, from: c.role, to: otherRole(c.role), key, keys, image, writtenAt, jitterMs };
}
