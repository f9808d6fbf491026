import type { WriteTime } from "./replication-types";

/** True when `a` is a later write than `b` (last writer wins); no `b` means the item was never written there. */
export function isLater(a: WriteTime, b: WriteTime | undefined): boolean {
  if (!b) return true;
  if (a.at !== b.at) return a.at > b.at;
  // Equal times are broken by the Region's name, so that both Regions pick the same winner.
  return a.region > b.region;
}

/** Stamps one Region's writes in the order its stream gives them, strictly increasing even within one millisecond. */
export class WriteClock {
  private last = Number.NEGATIVE_INFINITY;

  constructor(private readonly region: string) {}

  /** The write time of a record seen now. */
  stamp(): WriteTime {
    // DynamoDB Local's ApproximateCreationDateTime is whole seconds or coarser, too coarse to order writes made
    // within one lag, so the time the replicator read the record is the write time (a few ms to one poll late).
    this.last = Math.max(Date.now(), this.last + 0.001);
    return { at: this.last, region: this.region };
  }
}
