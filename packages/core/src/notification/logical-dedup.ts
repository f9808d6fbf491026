import { createHash } from "node:crypto";
import { type DynamoDBDocumentClient, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";

/**
 * The store behind logical-duplicate windows and per-user caps (Part 7, "Logical duplicates and windows"):
 * the DynamoDB stand-in for `SET key 1 NX EX <window>`.
 */
export interface DedupStore {
  /** Holds `key` for `owner` until `expiresAtS` unless another owner holds it unexpired; true when `owner` holds it. */
  hold(key: string, owner: string, nowS: number, expiresAtS: number): Promise<boolean>;
  /** Counts `member` once in `bucket` unless `cap` others are counted there already; false when over the cap. */
  count(bucket: string, member: string, cap: number, expiresAtS: number): Promise<boolean>;
}

/** The window in which the same message is a duplicate, and how many a user may get per hour. */
export interface DedupPolicy {
  windowS: number;
  capPerHour: number;
}

/** The producer-chosen identity of a message: a fingerprint of recipient, template and business key. */
export interface LogicalMessage {
  recipient: string;
  template: string;
  businessKey: string;
  /** The intent asking; the same intent asking again (a redelivery) is not a duplicate of itself. */
  owner: string;
}

export type Admission =
  | { admit: true; failedOpen: boolean }
  | { admit: false; reason: "logical-duplicate" | "user-cap" };

/**
 * Admits a message unless the same message went out within the window, then counts it against the user's cap:
 * after dedup, so that a dropped duplicate uses none of the allowance. A store error fails open: a duplicate
 * reminder is better than a lost one.
 */
export async function admitMessage(
  store: DedupStore,
  policy: DedupPolicy,
  m: LogicalMessage,
  nowMs: number,
): Promise<Admission> {
  const nowS = Math.floor(nowMs / 1000);
  const fingerprint = createHash("sha256")
    .update(`${m.recipient}\u0000${m.template}\u0000${m.businessKey}`)
    .digest("hex");
  try {
    if (!(await store.hold(fingerprint, m.owner, nowS, nowS + policy.windowS)))
      return { admit: false, reason: "logical-duplicate" };
  } catch {
    return { admit: true, failedOpen: true };
  }
  const hour = Math.floor(nowS / 3600);
  try {
    const within = await store.count(
      `${m.recipient}#${m.template}#${hour}`,
      m.owner,
      policy.capPerHour,
      (hour + 2) * 3600,
    );
    return within ? { admit: true, failedOpen: false } : { admit: false, reason: "user-cap" };
  } catch {
    return { admit: true, failedOpen: true };
  }
}

/** Dedup keys and cap counters on the consumer table, expiring through its TTL attribute `expires_at`. */
export class DynamoDedupStore implements DedupStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async hold(key: string, owner: string, nowS: number, expiresAtS: number): Promise<boolean> {
    try {
      // TTL deletes lazily (up to days later), so an expired key is absent by its expires_at, not by its presence.
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: `DEDUP#${key}`, sk: "DEDUP", owner, expires_at: expiresAtS },
          ConditionExpression: "attribute_not_exists(pk) OR expires_at < :now OR #owner = :owner",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":now": nowS, ":owner": owner },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }

  async count(bucket: string, member: string, cap: number, expiresAtS: number): Promise<boolean> {
    try {
      // ADD to a string set is idempotent, so a redelivery of the same intent is never counted twice.
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { pk: `CAP#${bucket}`, sk: "CAP" },
          UpdateExpression: "ADD members :member SET expires_at = :exp",
          ConditionExpression:
            "attribute_not_exists(members) OR contains(members, :id) OR size(members) < :cap",
          ExpressionAttributeValues: {
            ":member": new Set([member]),
            ":id": member,
            ":cap": cap,
            ":exp": expiresAtS,
          },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}
