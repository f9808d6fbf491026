import type { ControlRef } from "./control-authority";
import type { RegionPushEmail } from "./push-email";
import type { RegionQueues } from "./queues";
import type { RegionBase } from "./region-base";
import type { RegionTables } from "./tables";

/** Everything the stacks of one Region read. */
export interface RegionContext extends RegionBase {
  tables: RegionTables;
  /** Where the Region reads the authority (the active Region and its epoch). */
  control: ControlRef;
  queues: RegionQueues;
  /** The other Region's queues: a passive Region's worker hands the events it receives to the active one's queue. */
  peerQueues: RegionQueues;
  pushEmail: RegionPushEmail;
}
