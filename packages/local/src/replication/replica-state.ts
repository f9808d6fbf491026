import { ReplicaVersions } from "./replica-versions";
import type { Role } from "./replication-types";
import { WriteClock } from "./write-time";

/** What the replicator knows of both Regions: a write clock per Region and the item versions per table there. */
export class ReplicaState {
  readonly clocks: Record<Role, WriteClock>;
  private readonly versions = new Map<string, ReplicaVersions>();

  constructor(regions: Record<Role, string>) {
    this.clocks = { primary: new WriteClock(regions.primary), standby: new WriteClock(regions.standby) };
  }

  /** The versions of one table's items in one Region. */
  versionsOf(table: string, role: Role): ReplicaVersions {
    const id = `${role}|${table}`;
    let found = this.versions.get(id);
    if (!found) {
      found = new ReplicaVersions();
      this.versions.set(id, found);
    }
    return found;
  }

  /** How many applies, in any table and Region, have not been read back from their stream yet. */
  unread(): number {
    let n = 0;
    for (const v of this.versions.values()) n += v.unread();
    return n;
  }
}
