import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import {
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from "@aws-sdk/lib-dynamodb";
import { cancellationCodes, isConditionFailure } from "../aws/document-client";
import { CHARGE_OPEN_STATES, isSwept, mayMove, type PaymentState } from "../payment/payment-state";
import { journalAndOutbox, outboxAgain, refundJournalAndOutbox } from "./journal-and-outbox";
import {
  ANOMALY_INDEX_PK,
  type LocatorRow,
  locatorKey,
  type PaymentAnomaly,
  type PaymentRow,
  padTime,
  paymentKey,
  rowFields,
  sweepIndexKey,
  webhookInboxKey,
} from "./ledger-items";
import type { GuardConflict, LedgerPort, Move, MoveResult } from "./ledger-port";
import { unsafeNoRowCatchUp } from "./ledger-test-switches";

/** The ledger on one DynamoDB table (pk/sk, stream NEW_AND_OLD_IMAGES, sparse index gsi1). */
export class DynamoLedger implements LedgerPort {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    /** The Region whose handlers write through this ledger; its outbox items name it (`origin_region`). */
    private readonly origin?: "primary" | "standby",
  ) {}

  async insertPending(row: PaymentRow) {
    const locator: LocatorRow = {
      caller: row.caller,
      client_key: row.client_key,
      payment_id: row.payment_id,
      fingerprint: row.fingerprint,
      state: "ACTIVE",
      created_at: row.created_at,
    };
    try {
      await this.db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Put: this.putIfAbsent({
                ...paymentKey(row.payment_id),
                ...row,
                ...sweepIndexKey("PENDING", row.updated_at),
              }),
            },
            { Put: this.putIfAbsent({ ...locatorKey(row.caller, row.client_key), ...locator }) },
          ],
        }),
      );
      return { inserted: true as const };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return { inserted: false as const, ...(await this.conflict(row.caller, row.client_key)) };
    }
  }

  async insertVoid(caller: string, key: string, now: number, epoch?: number) {
    const tomb: LocatorRow = { caller, client_key: key, payment_id: "", state: "VOID", created_at: now };
    if (epoch !== undefined) tomb.epoch = epoch;
    try {
      await this.db.send(new PutCommand(this.putIfAbsent({ ...locatorKey(caller, key), ...tomb })));
      return { inserted: true as const };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return { inserted: false as const, ...(await this.conflict(caller, key)) };
    }
  }

  async getPayment(paymentId: string): Promise<PaymentRow | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: paymentKey(paymentId), ConsistentRead: true }),
    );
    return out.Item ? rowFields(out.Item as PaymentRow) : undefined;
  }

  async getLocator(caller: string, key: string): Promise<LocatorRow | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: locatorKey(caller, key), ConsistentRead: true }),
    );
    return out.Item as LocatorRow | undefined;
  }

  // Another writer may move the row between our read and our write (PENDING -> UNKNOWN at an owner's
  // deadline while the PSP's answer arrives): then the move is tried again from the row as it is now,
  // for as long as the state machine still allows it, so that a definite answer is never dropped.
  async move(m: Move): Promise<MoveResult> {
    let current = m.expected ? rowFields(m.expected) : await this.getPayment(m.paymentId);
    let effects = true;
    for (let attempt = 0; attempt < 3; attempt++) {
      if (!current) return { moved: false };
      if (!mayMove(current.state, m.to, m.from)) return { moved: false, row: current };
      const next: PaymentRow = { ...current, ...m.set, state: m.to, updated_at: m.now };
      try {
        await this.db.send(
          new TransactWriteCommand({ TransactItems: this.moveItems(current.state, next, m, effects) }),
        );
        return { moved: true, row: next };
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const codes = cancellationCodes(err);
        if (m.inboxEventId !== undefined && codes[codes.length - 1] === "ConditionalCheckFailed") {
          return { moved: false, row: await this.getPayment(m.paymentId), duplicate: true };
        }
        // The row allowed the move, but its journal entry is there already: the same move ran in the other
        // Region, whose row write lost to a later one (last writer wins per item, and a transaction is atomic
        // only in its own Region: seed Part 9). The entry, keyed by the payment, proves it; the row catches up
        // alone, or the payment would stay open for ever (found by the fault checker's two-Region schedules).
        if (effects && codes[0] === "None" && codes[1] === "ConditionalCheckFailed" && !unsafeNoRowCatchUp())
          effects = false;
        current = await this.getPayment(m.paymentId);
      }
    }
    return { moved: false, row: current };
  }

  async touchSweep(paymentId: string, state: PaymentState, now: number, retryAt = now): Promise<void> {
    const lookedUp = retryAt > now;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: paymentKey(paymentId),
          UpdateExpression: lookedUp
            ? "SET gsi1sk = :at, first_not_found_at = if_not_exists(first_not_found_at, :now) ADD lookup_attempts :one"
            : "SET gsi1sk = :at",
          ConditionExpression: "#state = :state",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: {
            ":at": padTime(retryAt),
            ":state": state,
            ...(lookedUp ? { ":one": 1, ":now": now } : {}),
          },
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  async recordAnomaly(paymentId: string, anomaly: PaymentAnomaly): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: paymentKey(paymentId),
          UpdateExpression: "SET anomaly = :a, gsi1pk = :pk, gsi1sk = :at",
          ConditionExpression: "attribute_exists(pk) AND attribute_not_exists(anomaly)",
          ExpressionAttributeValues: { ":a": anomaly, ":pk": ANOMALY_INDEX_PK, ":at": padTime(anomaly.at) },
        }),
      );
      return true;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return false;
    }
  }

  async listAnomalies(limit: number): Promise<PaymentRow[]> {
    return this.queryIndex(ANOMALY_INDEX_PK, undefined, limit);
  }

  async listByState(state: PaymentState, beforeMs: number, limit: number): Promise<PaymentRow[]> {
    return this.queryIndex(`SWEEP#${state}`, beforeMs, limit);
  }

  async rememberWebhookEvent(eventId: string, paymentId: string, now: number): Promise<boolean> {
    try {
      await this.db.send(
        new PutCommand(this.putIfAbsent({ ...webhookInboxKey(eventId), payment_id: paymentId, at: now })),
      );
      return true;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return false;
    }
  }

  private async queryIndex(pk: string, beforeMs: number | undefined, limit: number): Promise<PaymentRow[]> {
    const before = beforeMs === undefined ? "" : " AND gsi1sk < :before";
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        IndexName: "gsi1",
        KeyConditionExpression: `gsi1pk = :pk${before}`,
        ExpressionAttributeValues: {
          ":pk": pk,
          ...(beforeMs === undefined ? {} : { ":before": padTime(beforeMs) }),
        },
        Limit: limit,
      }),
    );
    return ((out.Items ?? []) as PaymentRow[]).map(rowFields);
  }

  // The row is rewritten whole on the condition that its state is still the one we read: a
  // compare-and-set that also writes the sparse index fields from the target state, so that a row read
  // back with its old entry leaves the index when it settles (an anomaly stays listed for a person).
  private moveItems(from: PaymentState, next: PaymentRow, m: Move, effects = true) {
    const index = isSwept(next.state)
      ? sweepIndexKey(next.state, m.now)
      : next.anomaly
        ? { gsi1pk: ANOMALY_INDEX_PK, gsi1sk: padTime(next.anomaly.at) }
        : {};
    const item = { ...paymentKey(next.payment_id), ...next, ...index };
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]> = [
      {
        Put: {
          TableName: this.table,
          Item: item,
          ConditionExpression: "#state = :from",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: { ":from": from },
        },
      },
    ];
    // The charge's journal and event are written once, when the charge settles, not when a refused refund
    // returns the payment to SUCCEEDED.
    const settles = next.state === "SUCCEEDED" && CHARGE_OPEN_STATES.includes(from);
    if (!effects && (settles || next.state === "REFUNDED"))
      items.push({
        Put: outboxAgain(this.table, next, m.now, next.state as "SUCCEEDED" | "REFUNDED", this.origin),
      });
    else if (settles)
      items.push(...journalAndOutbox(this.table, next, m.now, this.origin).map((Put) => ({ Put })));
    else if (next.state === "REFUNDED")
      items.push(...refundJournalAndOutbox(this.table, next, m.now, this.origin).map((Put) => ({ Put })));
    if (m.inboxEventId) {
      const inbox = { ...webhookInboxKey(m.inboxEventId), payment_id: next.payment_id, at: m.now };
      items.push({ Put: this.putIfAbsent(inbox) });
    }
    return items;
  }

  private putIfAbsent(item: Record<string, unknown>) {
    return { TableName: this.table, Item: item, ConditionExpression: "attribute_not_exists(pk)" };
  }

  private async conflict(caller: string, key: string): Promise<GuardConflict> {
    const locator = await this.getLocator(caller, key);
    if (!locator) throw new Error(`guard conflict for ${caller}/${key} but no locator was found`);
    const payment = locator.payment_id ? await this.getPayment(locator.payment_id) : undefined;
    return { locator, payment };
  }
}
