import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Clock } from "../clock/clock";
import { Refusal } from "../payment/payment-errors";
import { countSignal } from "../signals/signal-sink";
import type { ClaimAnswer, ClaimItem } from "./claim-answer";
import { isExpired } from "./claim-answer";
import { claimSwitches } from "./test-switches";

/** Thrown when a completion finds another owner on the claim: a paused owner woke up too late. */
export class ClaimLost extends Error {
  constructor(readonly scope: string) {
    super(`the claim on ${scope} belongs to another request now`);
    this.name = "ClaimLost";
  }
}

// A test-only switch that gives back Powertools' unconditional completion, so a test can show
// the paused owner overwriting the new owner's answer (Part 3, trace 3c).
const unconditional = () => claimSwitches().unconditionalCompletion;

/**
 * The claim table's conditional writes. Only conditional puts, updates and deletes on single items:
 * that is what a multi-Region strongly consistent table allows (no transactions, no TTL).
 */
export class ClaimTable {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly name: string,
    private readonly clock: Clock,
    private readonly windowS: number,
  ) {}

  /**
   * Claims the scope if it is absent, or expired and made for this same request; returns the item in
   * the way otherwise. An expired record of another request (or a void) is left for the durable guard
   * to judge, so that a refused request writes nothing (`claimOverExpired` takes it when it may).
   */
  async claim(
    id: string,
    owner: string,
    leaseUntil: number,
    fp: string | undefined,
  ): Promise<ClaimItem | undefined> {
    const now = this.clock.now();
    const item = this.inProgress(id, owner, leaseUntil, fp, now);
    return this.putUnless(item, "attribute_not_exists(id) OR (expiration < :now AND #fp = :fp)", {
      ":now": Math.floor(now / 1000),
      ":fp": fp ?? "",
    });
  }

  /** Claims over an expired record whatever request it was for, once the durable guard said it may. */
  async claimOverExpired(id: string, owner: string, leaseUntil: number, fp: string | undefined) {
    const now = this.clock.now();
    const item = this.inProgress(id, owner, leaseUntil, fp, now);
    return this.putUnless(item, "attribute_not_exists(id) OR expiration < :now", {
      ":now": Math.floor(now / 1000),
    });
  }

  /** Takes a dead owner's claim, only if the owner is still the one we read. */
  async takeOver(old: ClaimItem, owner: string, leaseUntil: number): Promise<ClaimItem | undefined> {
    const item: ClaimItem = {
      ...old,
      owner,
      in_progress_until: leaseUntil,
      expiration: this.expiry(this.clock.now()),
    };
    // Without the owner check (a test-only switch) two takers that read the same dead owner both win.
    if (claimSwitches().takeoverWithoutOwnerCheck)
      return this.putUnless(item, "#status = :inprogress", { ":inprogress": "INPROGRESS" });
    return this.putUnless(item, "#owner = :old AND #status = :inprogress", {
      ":old": old.owner,
      ":inprogress": "INPROGRESS",
    });
  }

  /** Stores the answer, only if the claim is still ours. */
  async complete(id: string, owner: string, answer: ClaimAnswer): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.name,
          Key: { id },
          UpdateExpression: "SET #status = :done, #data = :data, expiration = :exp REMOVE in_progress_until",
          ConditionExpression: unconditional() ? undefined : "#owner = :me",
          ExpressionAttributeNames: {
            "#status": "status",
            "#data": "data",
            ...(unconditional() ? {} : { "#owner": "owner" }),
          },
          ExpressionAttributeValues: {
            ":done": "COMPLETED",
            ":data": JSON.stringify(answer),
            ":exp": this.expiry(this.clock.now()),
            ...(unconditional() ? {} : { ":me": owner }),
          },
        }),
      );
    } catch (err) {
      if ((err as Error).name === "ConditionalCheckFailedException") throw new ClaimLost(id);
      if (isReplicatedConflict(err)) throw replicatedConflict();
      throw err;
    }
  }

  /** Deletes the claim so the request may run again, only if it is still ours and nothing started. */
  async release(id: string, owner: string): Promise<void> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.name,
          Key: { id },
          ConditionExpression: "#owner = :me",
          ExpressionAttributeNames: { "#owner": "owner" },
          ExpressionAttributeValues: { ":me": owner },
        }),
      );
    } catch (err) {
      if (isReplicatedConflict(err)) throw replicatedConflict();
      if ((err as Error).name !== "ConditionalCheckFailedException") throw err;
    }
  }

  /** Voids an absent (or expired) key; returns the item in the way when there is one. */
  async void(id: string): Promise<ClaimItem | undefined> {
    const now = this.clock.now();
    const item: ClaimItem = { id, status: "VOID", expiration: this.expiry(now) };
    return this.putUnless(item, "attribute_not_exists(id) OR expiration < :now", {
      ":now": Math.floor(now / 1000),
    });
  }

  /** Rewrites a completed claim's stored answer to the final one (the resolver's last step). */
  async rewriteAnswer(id: string, answer: ClaimAnswer): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.name,
          Key: { id },
          UpdateExpression: "SET #data = :data",
          ConditionExpression: "#status = :done AND expiration >= :now",
          ExpressionAttributeNames: { "#status": "status", "#data": "data" },
          ExpressionAttributeValues: {
            ":data": JSON.stringify(answer),
            ":done": "COMPLETED",
            ":now": Math.floor(this.clock.now() / 1000),
          },
        }),
      );
      return true;
    } catch (err) {
      // Another writer, here or in another Region, got there first; the next pass rewrites it.
      if ((err as Error).name === "ConditionalCheckFailedException" || isReplicatedConflict(err))
        return false;
      throw err;
    }
  }

  /** Reads the claim, treating an expired one as absent. */
  async readLive(id: string): Promise<ClaimItem | undefined> {
    const item = await this.read(id);
    return item && !isExpired(item, this.clock.now()) ? item : undefined;
  }

  async read(id: string): Promise<ClaimItem | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.name, Key: { id }, ConsistentRead: true }),
    );
    return out.Item ? decode(out.Item) : undefined;
  }

  private inProgress(
    id: string,
    owner: string,
    leaseUntil: number,
    fp: string | undefined,
    now: number,
  ): ClaimItem {
    return {
      id,
      status: "INPROGRESS",
      owner,
      validation: fp,
      in_progress_until: leaseUntil,
      expiration: this.expiry(now),
    };
  }

  private expiry(nowMs: number): number {
    return Math.floor(nowMs / 1000) + this.windowS;
  }

  private async putUnless(
    item: ClaimItem,
    condition: string,
    values: Record<string, unknown>,
    tries = 3,
  ): Promise<ClaimItem | undefined> {
    const all: Record<string, string> = { "#owner": "owner", "#status": "status", "#fp": "validation" };
    const used = Object.entries(all).filter(([k]) => condition.includes(k));
    const names = used.length ? Object.fromEntries(used) : undefined;
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.name,
          Item: item,
          ConditionExpression: condition,
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return undefined;
    } catch (err) {
      const e = err as { name?: string; Item?: Record<string, unknown> };
      if (isReplicatedConflict(err)) throw replicatedConflict();
      if (e.name !== "ConditionalCheckFailedException") throw err;
      const inTheWay = e.Item ? decode(unmarshallOld(e.Item)) : await this.read(item.id);
      if (inTheWay) return inTheWay;
      // The item that failed our condition is gone already (released meanwhile): nothing was written,
      // so this is no claim yet; write again.
      if (tries > 1) return this.putUnless(item, condition, values, tries - 1);
      throw new Refusal("in-progress", "the key record kept changing while we claimed it; retry", 1);
    }
  }
}

// On a multi-Region strongly consistent table a write racing one in another Region fails this way.
// Counted for on-call: with one active Region they are rare, so many mean both Regions write the same keys.
const isReplicatedConflict = (err: unknown) => {
  const conflict = (err as Error)?.name === "ReplicatedWriteConflictException";
  if (conflict) countSignal("ReplicatedWriteConflicts");
  return conflict;
};
const replicatedConflict = () =>
  new Refusal("in-progress", "another Region is writing this key right now; retry", 1);

// The answer is stored as JSON text so that a replay is the first answer byte for byte (a DynamoDB
// map would not keep the order of its keys).
function decode(raw: Record<string, unknown>): ClaimItem {
  const item = raw as unknown as ClaimItem & { data?: unknown };
  return typeof item.data === "string" ? { ...item, data: JSON.parse(item.data) as ClaimAnswer } : item;
}

// The document client leaves ALL_OLD on a failed condition in the low-level attribute format.
function unmarshallOld(raw: Record<string, unknown>): Record<string, unknown> {
  const first = Object.values(raw)[0] as Record<string, unknown> | undefined;
  const looksRaw =
    first && typeof first === "object" && ["S", "N", "M", "BOOL", "L", "NULL"].some((t) => t in first);
  return looksRaw ? (unmarshallAttr({ M: raw }) as Record<string, unknown>) : raw;
}

function unmarshallAttr(v: unknown): unknown {
  const a = v as Record<string, unknown>;
  if ("S" in a) return a.S;
  if ("N" in a) return Number(a.N);
  if ("BOOL" in a) return a.BOOL;
  if ("NULL" in a) return null;
  if ("L" in a) return (a.L as unknown[]).map(unmarshallAttr);
  if ("M" in a)
    return Object.fromEntries(
      Object.entries(a.M as Record<string, unknown>).map(([k, x]) => [k, unmarshallAttr(x)]),
    );
  return undefined;
}
