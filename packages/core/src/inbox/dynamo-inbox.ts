import { type DynamoDBDocumentClient, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationReasons } from "../aws/document-client";
import type { NotificationIntent } from "../notification/intent";
import type { PaymentEvent } from "../outbox/payment-event";
import { inboxTransaction } from "./inbox-transaction";

/** Applies an event's effect at most once. */
export interface Inbox {
  /** "applied" the first time; "duplicate" when the inbox already holds the event (nothing was written). */
  applyOnce(
    event: PaymentEvent,
    intents: NotificationIntent[],
    now: number,
    money?: boolean,
  ): Promise<"applied" | "duplicate">;
}

/** The inbox on the consumer table, in one TransactWriteItems with the money record and the intents. */
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
    money = true,
  ): Promise<"applied" | "duplicate"> {
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: inboxTransaction(this.table, event, intents, this.shards, now, { money }),
        }),
      );
      return "applied";
    } catch (err) {
      const rest = remainder(err, event, intents, money);
      if (rest === "duplicate") return "duplicate";
      return this.applyOnce(event, rest.intents, now, rest.money);
    }
  }
}

/**
 * What is left to write after a cancelled transaction, or "duplicate" when the inbox holds the event. A money
 * record or intent that is there already is the result itself (keyed by the event id): it came from the other
 * Region, whose transaction replicated apart, or from an earlier try here. Anything else is thrown.
 */
function remainder(err: unknown, event: PaymentEvent, intents: NotificationIntent[], money: boolean) {
  const reasons = cancellationReasons(err);
  if (reasons.length === 0) throw err;
  if (reasons[0]?.Code === "ConditionalCheckFailed") return "duplicate" as const;
  const first = money ? 2 : 1;
  const moneyThere = money && reasons[1]?.Code === "ConditionalCheckFailed";
  if (moneyThere) assertSameMoney(event, reasons[1]?.Item);
  const present = intents.filter((_, i) => reasons[first + i]?.Code === "ConditionalCheckFailed");
  const other = reasons.some((r) => r.Code !== "None" && r.Code !== "ConditionalCheckFailed");
  if (other || (!moneyThere && present.length === 0)) throw err;
  return { money: money && !moneyThere, intents: intents.filter((x) => !present.includes(x)) };
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

// Cancellation reasons carry the item in DynamoDB's own JSON, whichever client threw them.
function scalarOf(v: unknown): unknown {
  if (v && typeof v === "object") {
    const o = v as { N?: string; S?: string };
    return o.N ?? o.S;
  }
  return v;
}
