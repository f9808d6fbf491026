import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Slot } from "./psp-budget";

/** How long an idle bucket's item lives after its last use (TTL, seconds). */
const BUCKET_TTL_S = 3_600;
/** Attempts at one reservation when others race for the same item; each loss means someone else got a slot. */
const MAX_RACES = 6;

/** The bucket is reserved up to `busyUntilMs`: no idle slot before then. */
export type Busy = { granted: false; busyUntilMs: number };

/**
 * Rate buckets as the generic cell rate algorithm on one DynamoDB item each: the item holds the bucket's
 * theoretical arrival time `tat`, the next moment a request may go. Every reservation moves it on by one
 * interval, so granted slots are at least one interval apart: no burst at a second's edge (a per-second
 * counter lets through twice the cap across that edge, and the PSP counts a sliding second).
 */
export class GcraBuckets {
  private readonly seen = new Map<string, number>();

  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The clock the claim table's expiry is read by (the sweeps' clock), not the rate's real time. */
    private readonly expiryNow: () => number,
  ) {}

  /** Reserves the bucket's next slot if it comes no later than `latestMs`; waiting for it is the caller's. */
  async queue(name: string, intervalMs: number, nowMs: number, latestMs: number): Promise<Slot> {
    // The last `tat` this process saw says which of the two writes is likely to win, saving a round trip.
    let idleFirst = (this.seen.get(name) ?? 0) <= nowMs;
    for (let race = 0; race < MAX_RACES; race++, idleFirst = !idleFirst) {
      if (idleFirst) {
        const idle = await this.idle(name, intervalMs, nowMs);
        if (idle.granted) return idle;
        if (idle.busyUntilMs > latestMs) return { granted: false, retryAfterMs: idle.busyUntilMs - nowMs };
      } else {
        const behind = await this.takeBehind(name, intervalMs, nowMs, latestMs);
        if (behind.granted) return behind;
        if (behind.tat !== undefined && behind.tat > latestMs)
          return { granted: false, retryAfterMs: behind.tat - nowMs };
      }
    }
    return { granted: false, retryAfterMs: intervalMs };
  }

  /** Takes a slot now only when nobody has reserved one ahead of now (the bucket is idle). */
  async idle(
    name: string,
    intervalMs: number,
    nowMs: number,
  ): Promise<{ granted: true; atMs: number } | Busy> {
    const old = await this.update(name, {
      UpdateExpression: "SET tat = :next, expiration = :exp",
      ConditionExpression: "attribute_not_exists(tat) OR tat <= :now",
      ExpressionAttributeValues: { ":next": nowMs + intervalMs, ":now": nowMs, ":exp": this.expiration() },
    });
    this.seen.set(name, old.ok ? nowMs + intervalMs : (old.tat ?? nowMs));
    return old.ok ? { granted: true, atMs: nowMs } : { granted: false, busyUntilMs: old.tat ?? nowMs };
  }

  // Queues behind the slots already reserved: the slot is the old `tat`, and `tat` moves on by one interval.
  private async takeBehind(name: string, intervalMs: number, nowMs: number, latestMs: number) {
    const res = await this.update(name, {
      UpdateExpression: "SET tat = tat + :interval, expiration = :exp",
      ConditionExpression: "tat > :now AND tat <= :latest",
      ExpressionAttributeValues: {
        ":interval": intervalMs,
        ":now": nowMs,
        ":latest": latestMs,
        ":exp": this.expiration(),
      },
    });
    if (res.tat !== undefined) this.seen.set(name, res.tat);
    return res.ok && res.tat !== undefined
      ? { granted: true as const, atMs: res.tat - intervalMs }
      : { granted: false as const, tat: res.tat };
  }

  private expiration(): number {
    return Math.floor(this.expiryNow() / 1000) + BUCKET_TTL_S;
  }

  private async update(
    name: string,
    expr: Pick<
      ConstructorParameters<typeof UpdateCommand>[0],
      "UpdateExpression" | "ConditionExpression" | "ExpressionAttributeValues"
    >,
  ): Promise<{ ok: boolean; tat?: number }> {
    try {
      const out = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { id: `BUDGET#${name}` },
          ...expr,
          ReturnValues: "UPDATED_NEW",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return { ok: true, tat: out.Attributes?.tat as number | undefined };
    } catch (err) {
      if ((err as Error).name !== "ConditionalCheckFailedException") throw err;
      const item = (err as { Item?: Record<string, unknown> }).Item;
      return { ok: false, tat: tatOf(item) };
    }
  }
}

// The document client leaves the old item of a failed condition in its marshalled form.
function tatOf(item: Record<string, unknown> | undefined): number | undefined {
  const raw = item?.tat as { N?: string } | number | undefined;
  if (raw === undefined) return undefined;
  return typeof raw === "number" ? raw : Number(raw.N);
}
