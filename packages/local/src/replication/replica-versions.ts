import { sameImage } from "./item-identity";
import type { ItemImage, Version } from "./replication-types";
import { isLater } from "./write-time";

/** What the version of the item was, in stream order, just before an echo, when that was a later write. */
export interface TakenEcho {
  echo: Version;
  overwrote?: Version;
}

/**
 * What the replicator knows of one table's items in one Region: each item's version in the order of the Region's
 * stream, and the applies it made there whose records it has not read back yet (their echoes).
 */
export class ReplicaVersions {
  private readonly streamed = new Map<string, Version>();
  private readonly echoes = new Map<string, Version[]>();

  /** The item's latest version here: an apply not read back yet is later than anything read before it. */
  latest(key: string): Version | undefined {
    return this.echoes.get(key)?.at(-1) ?? this.streamed.get(key);
  }

  /** A write made in this Region was read from its stream. */
  wroteHere(key: string, version: Version): void {
    this.streamed.set(key, version);
  }

  /** An apply is about to be made; its record will come back on this Region's stream. */
  expectEcho(key: string, version: Version): void {
    const list = this.echoes.get(key) ?? [];
    list.push(version);
    this.echoes.set(key, list);
  }

  /** An apply failed or found the item already so: no record comes back for it. */
  withdrawEcho(key: string, version: Version): void {
    const list = this.echoes.get(key);
    const at = list?.indexOf(version) ?? -1;
    if (!list || at < 0) return;
    list.splice(at, 1);
    if (list.length === 0) this.echoes.delete(key);
  }

  /** The item already held this image: it now carries this write's time, as if the write had been made. */
  keepTime(key: string, version: Version): void {
    if (!this.echoes.has(key)) this.streamed.set(key, version);
  }

  /**
   * Takes a record read from this Region's stream as the echo of an apply when its image matches one expected
   * (echoes before it that never came are dropped), and says which later write the apply overwrote, if any.
   */
  takeEcho(key: string, image: ItemImage | undefined): TakenEcho | undefined {
    const list = this.echoes.get(key);
    const at = list?.findIndex((v) => sameImage(v.image, image)) ?? -1;
    if (!list || at < 0) return undefined;
    const echo = list[at] as Version;
    list.splice(0, at + 1);
    if (list.length === 0) this.echoes.delete(key);
    const before = this.streamed.get(key);
    this.streamed.set(key, echo);
    // The apply checked against what it knew; a later version just before it in the stream was not known yet.
    return before && isLater(before.writtenAt, echo.writtenAt) ? { echo, overwrote: before } : { echo };
  }

  /** How many applies have not been read back from the stream yet. */
  unread(): number {
    let n = 0;
    for (const list of this.echoes.values()) n += list.length;
    return n;
  }
}
