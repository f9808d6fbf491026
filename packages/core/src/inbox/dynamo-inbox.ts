import { type DynamoDBDocumentClient, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationCodes } from "../aws/document-client";
import type { NotificationIntent } from "../notification/intent";
import type { PaymentEvent } from "../outbox/payment-event";
import { FIRST_INTENT_INDEX, inboxTransaction } from "./inbox-transaction";

/** Applies an event's effect at most once. */
export interface Inbox {
  /** "applied" the first time; "duplicate" when the inbox already holds the event (nothing was written). */
  applyOnce(
    event: PaymentEvent,
    intents: NotificationIntent[],
    now: number,
  ): Promise<"applied" | "duplicate">;
}

/** The inbox on the consumer table, in one TransactWriteItems with the credit, the balance shard and the intents. */
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
        new TransactWriteCommand({
          TransactItems: inboxTransaction(this.table, event, intents, this.shards, now),
        }),
      );
      return "applied";
    } catch (err) {
      const codes = cancellationCodes(err);
      if (codes[0] === "ConditionalCheckFailed") return "duplicate";
      // Insert-if-absent for intents: when only intents already exist, apply again without them.
      const present = intents.filter((_, i) => codes[FIRST_INTENT_INDEX + i] === "ConditionalCheckFailed");
      const onlyIntents =
        present.length > 0 && codes.every((c, i) => c === "None" || i >= FIRST_INTENT_INDEX);
      if (onlyIntents)
        return this.applyOnce(
          event,
          intents.filter((x) => !present.includes(x)),
          now,
        );
      throw err;
    }
  }
}
