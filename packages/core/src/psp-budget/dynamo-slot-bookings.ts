import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { DeleteCommand, GetCommand, PutCommand } from "@aws-sdk/lib-dynamodb";
import type { SlotBooking, SlotBookings } from "./slot-bookings";

/** How long a booking outlives its slot (s): its retry may come this late and still find it; then TTL removes it. */
const BOOKING_TTL_AFTER_SLOT_S = 300;

/**
 * Bookings as items `BOOK#{payment_id}` in the claim table. They hold no money and no payment: reconcile never
 * reads this table, and an unclaimed booking only waits for its TTL.
 */
export class DynamoSlotBookings implements SlotBookings {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The clock the claim table's expiry is read by (the sweeps' clock). */
    private readonly expiryNow: () => number,
  ) {}

  async find(paymentId: string): Promise<SlotBooking | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: { id: keyOf(paymentId) }, ConsistentRead: true }),
    );
    const item = out.Item;
    if (!item || typeof item.at !== "number") return undefined;
    return { paymentId, atMs: item.at, spacingMs: Number(item.spacing_ms ?? 0) };
  }

  async book(b: SlotBooking): Promise<void> {
    await this.db.send(
      new PutCommand({
        TableName: this.table,
        Item: {
          id: keyOf(b.paymentId),
          at: b.atMs,
          spacing_ms: b.spacingMs,
          expiration:
            Math.floor(this.expiryNow() / 1000) +
            Math.ceil(Math.max(0, b.atMs - Date.now()) / 1000) +
            BOOKING_TTL_AFTER_SLOT_S,
        },
      }),
    );
  }

  async take(b: SlotBooking): Promise<boolean> {
    try {
      await this.db.send(
        new DeleteCommand({
          TableName: this.table,
          Key: { id: keyOf(b.paymentId) },
          ConditionExpression: "#at = :at",
          ExpressionAttributeNames: { "#at": "at" },
          ExpressionAttributeValues: { ":at": b.atMs },
        }),
      );
      return true;
    } catch (err) {
      if ((err as Error).name === "ConditionalCheckFailedException") return false;
      throw err;
    }
  }
}

const keyOf = (paymentId: string) => `BOOK#${paymentId}`;
