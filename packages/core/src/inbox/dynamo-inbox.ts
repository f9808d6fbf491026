import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { NotificationIntent } from "../notification/intent";
import type { PaymentEvent } from "../outbox/payment-event";
import { eventRecordItem } from "./event-record";

/** Applies an event's effect at most once. */
export interface Inbox {
  /** "applied" the first time; "duplicate" when the event's record is there already (nothing was written). */
  applyOnce(
    event: PaymentEvent,
    intents: NotificationIntent[],
    now: number,
  ): Promise<"applied" | "duplicate">;
}

/** The inbox on the consumer table: the event's record, put if absent (`event-record.ts`). */
export class DynamoInbox implements Inbox {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly shards: number,
  ) {}

  async applyOnce(
    event: PaymentEvent,
    intents: NotificationIntent[],
    now: number,
  ): Promise<"applied" | "duplicate"> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: eventRecordItem(event, intents, this.shards, now),
          ConditionExpression: "attribute_not_exists(pk)",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return "applied";
    } catch (err) {
      const name = (err as { name?: string }).name;
      if (name !== "ConditionalCheckFailedException") throw err;
      // A record there already is the result itself: an earlier delivery here, or the other Region's.
      assertSameMoney(event, (err as { Item?: Record<string, unknown> }).Item);
      return "duplicate";
    }
  }
}

// A record under this event's key with another amount was not written by this event: a bad manual edit or an
// id collision. Guessing which is right would move money, so the event fails and, after its retries, waits in
// the DLQ until a person removes the stray record and redrives it.
function assertSameMoney(event: PaymentEvent, item: Record<string, unknown> | undefined): void {
  const amount = Number(scalarOf(item?.amount));
  const currency = String(scalarOf(item?.currency));
  if (amount === event.amount && currency === event.currency) return;
  throw new Error(
    `a money record for event ${event.event_id} already holds ${amount} ${currency}, not ${event.amount} ${event.currency}: not applied; remove the stray record, then redrive the event`,
  );
}

// The failed condition carries the item in DynamoDB's own JSON, whichever client threw it.
function scalarOf(v: unknown): unknown {
  if (v && typeof v === "object") {
    const o = v as { N?: string; S?: string };
    return o.N ?? o.S;
  }
  return v;
}
