import type { AttributeValue } from "aws-lambda";

/** A local Region's role; the replicator ships each write from one to the other. */
export type Role = "primary" | "standby";

/** An item as a stream record carries it (the Lambda JSON form: binary values as base64). */
export type ItemImage = Record<string, AttributeValue>;

/**
 * When a write was made, for last writer wins: the time the replicator saw it on its Region's stream, with the
 * Region's name to break a tie the same way in both Regions.
 */
export interface WriteTime {
  at: number;
  region: string;
}

/** One version of an item in one Region: its image (undefined once deleted) and its write time. */
export interface Version {
  image: ItemImage | undefined;
  writtenAt: WriteTime;
}

/** One item change on its way from the Region where it was written to the other one. */
export interface ItemChange {
  table: string;
  from: Role;
  to: Role;
  /** The item's identity within its table (item-identity.ts). */
  key: string;
  /** The item's key attributes, for a delete. */
  keys: ItemImage;
  /** The new image; undefined for a delete (a REMOVE, TTL deletes included). */
  image: ItemImage | undefined;
  writtenAt: WriteTime;
  /** The extra delay of this one item, so that a transaction's items can arrive apart. */
  jitterMs: number;
  /** Re-applies, in its own Region and without lag, a write that an apply overwrote before it was seen. */
  repair?: boolean;
  /** A refused or failed apply waits until then before it is tried again (epoch ms). */
  notBefore?: number;
  /** How many times the target refused the apply because it held a version not read from its stream yet. */
  refusals?: number;
}

/** The other Region. */
export function otherRole(role: Role): Role {
  return role === "primary" ? "standby" : "primary";
}
