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
import { unsafeNoRefundTakeBack } from "../payment/payment-test-switches";
import type { LookupCursor } from "../psp/psp-port";
import { type FoundAtPsp, putFoundAtPsp, readFoundAtPsp } from "./found-at-psp";
import { sweepIndexPk, sweepIndexPks } from "./index-shards";
import { type EventState, outboxAgain, refundFactSk } from "./journal-and-outbox";
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
import { unsafeNoRowCatchUp, unsafeRowsLastWriterWins } from "./ledger-test-switches";
import { writeLookupCursor, writePspSends } from "./lookup-records";
import { type MoveTarget, moveItems, rowPut } from "./move-items";
import { queryShardedIndex } from "./query-sharded-index";
import { listRefundMarks, type RefundMark, updateRefundMark } from "./refund-marks";
import { isStateFact, mergeFacts, type StateFact } from "./state-facts";

/** A row as read: with its facts folded in, and the state its own item stores (what a compare-and-set compares). */
interface ReadRow {
  row: PaymentRow;
  stored: PaymentState;
  /** The state facts beside the row, as stored (none when the row is read alone). */
  facts?: ReadonlyArray<Record<string, unknown>>;
}

// A caller's row may be one a read moved forward to its facts; then the compare-and-set fails once on the stored state
// and the move goes on from a fresh read.
const asRead = (row: PaymentRow): ReadRow => ({ row: rowFields(row), stored: row.state });

/**
 * The events of the states a row catching up with its facts passes: the charge's, the refund's, or the take-back of a
 * refund it had stored as done. Others ride on their facts, which replicate listed in the outbox.
 */
function crossed(stored: PaymentState, to: PaymentState): EventState[] {
  const settled = to === "SUCCEEDED" || to === "REFUNDED" || to === "REFUND_FAILED";
  const charge = CHARGE_OPEN_STATES.includes(stored) && settled;
  return [
    ...(charge ? ["SUCCEEDED" as const] : []),
    ...(to === "REFUNDED" ? ["REFUNDED" as const] : []),
    ...(to === "REFUND_FAILED" && stored === "REFUNDED" ? ["REFUND_FAILED" as const] : []),
  ];
}

/**
 * Whether the merchant is owed the take-back of a refund debit that no event carries: the row's attempt has its
 * REFUNDED entry (the merchant was debited through its event) and its failure's fact is a notice without legs. Each
 * Region wrote one of the two without the other: one heard the refund succeed, the other, cut off from it, heard it
 * fail while the refund was still in flight there (a notice only); the REFUNDED write lost to the later REFUND_FAILED
 * row, so the `crossed` take-back (stored REFUNDED) never fires (sim seed 882003, schedule 1476, Stripe's dialect:
 * `resolver[lookup_lag] pay#1[webhook late] … cancel#1[psp_outage] … region_partition cancel#2[psp_outage]
 * resolver[paused_across_cut]`, where the merchant ended debited for a refund Stripe failed).
 */
function takeBackOwed(read: ReadRow): boolean {
  if (read.row.state !== "REFUND_FAILED" || unsafeNoRefundTakeBack()) return false;
  const attempt = read.row.refund_attempt ?? 1;
  const fact = (state: "REFUNDED" | "REFUND_FAILED") =>
    read.facts?.find((f) => f.sk === refundFactSk(state, attempt));
  const failure = fact("REFUND_FAILED");
  const legs = failure?.legs;
  return (
    fact("REFUNDED") !== undefined && failure !== undefined && (!Array.isArray(legs) || legs.length === 0)
  );
}

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
                ...sweepIndexKey("PENDING", row.payment_id, row.updated_at),
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
    return (await this.read(paymentId, !unsafeRowsLastWriterWins()))?.row;
  }

  async getLocator(caller: string, key: string): Promise<LocatorRow | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: locatorKey(caller, key), ConsistentRead: true }),
    );
    return out.Item as LocatorRow | undefined;
  }

  getFoundAtPsp(paymentId: string): Promise<FoundAtPsp | undefined> {
    return readFoundAtPsp(this.db, this.table, paymentId);
  }

  keepFoundAtPsp(paymentId: string, found: FoundAtPsp): Promise<void> {
    return putFoundAtPsp(this.db, this.table, paymentId, found);
  }

  // Another writer may move the row between our read and our write (PENDING -> UNKNOWN at an owner's
  // deadline while the PSP's answer arrives): then the move is tried again from the row as it is now,
  // for as long as the state machine still allows it, so that a definite answer is never dropped.
  async move(m: Move): Promise<MoveResult> {
    const folds = !unsafeRowsLastWriterWins();
    let read = m.expected ? asRead(m.expected) : await this.read(m.paymentId, folds);
    const present = new Set<string>();
    for (let attempt = 0; attempt < 3; attempt++) {
      if (!read) return { moved: false };
      const { row: current, stored } = read;
      if (!mayMove(current.state, m.to, m.from)) return { moved: false, row: current };
      const next: PaymentRow = { ...current, ...m.set, state: m.to, updated_at: m.now };
      const planned = moveItems(this.target, stored, current.state, next, m, present);
      try {
        await this.db.send(new TransactWriteCommand({ TransactItems: planned.items }));
        return { moved: true, row: next };
      } catch (err) {
        if (!isConditionFailure(err)) throw err;
        const codes = cancellationCodes(err);
        if (m.inboxEventId !== undefined && codes[codes.length - 1] === "ConditionalCheckFailed") {
          return { moved: false, row: await this.getPayment(m.paymentId), duplicate: true };
        }
        // The row allowed the move, but a fact it would write is there already: the same move ran in the other
        // Region, whose row write lost to a later one (last writer wins per item, and a transaction is atomic only in
        // its own Region: seed Part 9). The fact, keyed by the payment, proves it; the row catches up without it, or
        // the payment would stay open for ever (found by the fault checker's two-Region schedules).
        if (codes[0] === "None" && !unsafeNoRowCatchUp())
          codes.forEach((code, i) => {
            const sk = planned.factAt[i];
            if (code === "ConditionalCheckFailed" && sk) present.add(sk);
          });
        read = await this.read(m.paymentId, folds);
      }
    }
    return { moved: false, row: read?.row };
  }

  async catchUp(paymentId: string, now: number): Promise<MoveResult> {
    const folds = !unsafeRowsLastWriterWins();
    const read = await this.read(paymentId, folds);
    if (!read) return { moved: false };
    // The events of the states crossed, again under their derived ids: a copy is harmless, and the facts' own may
    // have been relayed by the other Region or be waiting for this one's sweep. A take-back owed to a row that is not
    // behind its facts goes out the same way (its record is a CREDIT#, not the notice's NOTICE#, so the inbox applies
    // it once beside the notice, and the notice's intent marks keep the buyer from being told twice).
    const behind = read.row.state !== read.stored;
    const events = behind ? crossed(read.stored, read.row.state) : [];
    if (!events.includes("REFUND_FAILED") && takeBackOwed(read)) events.push("REFUND_FAILED");
    if (!behind && events.length === 0) return { moved: false, row: read.row };
    const next: PaymentRow = { ...read.row, updated_at: now };
    const items = [rowPut(this.table, next, read.stored, now)];
    for (const state of events) items.push({ Put: outboxAgain(this.table, next, now, state, this.origin) });
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return { moved: true, row: next };
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return { moved: false, row: (await this.read(paymentId, folds))?.row };
    }
  }

  // The key is set again with the time: the same for a row of this version, and a row an earlier version listed under
  // its state's single key moves to its shard the first time the resolver sends it to the back (the same 2 index
  // writes as the time alone, since the sort key changes either way).
  async touchSweep(paymentId: string, state: PaymentState, now: number, retryAt = now): Promise<void> {
    const lookedUp = retryAt > now;
    const index = isSwept(state) ? { ":pk": sweepIndexPk(state, paymentId) } : {};
    const set = `SET ${isSwept(state) ? "gsi1pk = :pk, " : ""}gsi1sk = :at`;
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: paymentKey(paymentId),
          UpdateExpression: lookedUp
            ? `${set}, first_not_found_at = if_not_exists(first_not_found_at, :now) ADD lookup_attempts :one`
            : set,
          ConditionExpression: "#state = :state",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: {
            ":at": padTime(retryAt),
            ":state": state,
            ...index,
            ...(lookedUp ? { ":one": 1, ":now": now } : {}),
          },
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  recordPspSends(s: {
    paymentId: string;
    state: PaymentState;
    before: number[] | undefined;
    after: number[];
  }): Promise<boolean> {
    return writePspSends(this.db, this.table, s);
  }

  keepLookupCursor(paymentId: string, state: PaymentState, cursor: LookupCursor | undefined): Promise<void> {
    return writeLookupCursor(this.db, this.table, paymentId, state, cursor);
  }

  // As touchSweep, with the failure counted and its error kept on the row for the on-call engineer.
  async recordSettleFailure(
    paymentId: string,
    state: PaymentState,
    retryAt: number,
    error: string,
  ): Promise<number | undefined> {
    const index = isSwept(state) ? { ":pk": sweepIndexPk(state, paymentId) } : {};
    try {
      const res = await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: paymentKey(paymentId),
          UpdateExpression: `SET ${isSwept(state) ? "gsi1pk = :pk, " : ""}gsi1sk = :at, resolver_error = :e ADD resolver_failures :one`,
          ConditionExpression: "#state = :state",
          ExpressionAttributeNames: { "#state": "state" },
          ExpressionAttributeValues: {
            ":at": padTime(retryAt),
            ":state": state,
            ":e": error,
            ":one": 1,
            ...index,
          },
          ReturnValues: "UPDATED_NEW",
        }),
      );
      return Number(res.Attributes?.resolver_failures ?? 0);
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      return undefined;
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

  // Anomalies keep one key: the PSP contradicting a final state is rare, and a person clears each.
  async listAnomalies(limit: number): Promise<PaymentRow[]> {
    return this.queryIndex([ANOMALY_INDEX_PK], undefined, limit);
  }

  async listRefundMarks(beforeMs: number, limit: number): Promise<RefundMark[]> {
    return listRefundMarks(this.db, this.table, beforeMs, limit);
  }

  async updateRefundMark(mark: { paymentId: string; sk: string; dueMs?: number }): Promise<void> {
    await updateRefundMark(this.db, this.table, mark);
  }

  async listByState(state: PaymentState, beforeMs: number, limit: number): Promise<PaymentRow[]> {
    return this.queryIndex(sweepIndexPks(state), beforeMs, limit);
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

  private async queryIndex(
    keys: string[],
    beforeMs: number | undefined,
    limit: number,
  ): Promise<PaymentRow[]> {
    const items = await queryShardedIndex(this.db, { table: this.table, keys, beforeMs, limit });
    return (items as unknown as PaymentRow[]).map(rowFields);
  }

  /** The row as stored, and as its state facts beside it (same partition) make it, in one strongly consistent read. */
  private async read(paymentId: string, folds: boolean): Promise<ReadRow | undefined> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": paymentKey(paymentId).pk },
        ConsistentRead: true,
      }),
    );
    const items = (out.Items ?? []) as Array<Record<string, unknown>>;
    const item = items.find((i) => i.sk === paymentKey(paymentId).sk);
    if (!item) return undefined;
    const row = rowFields(item as unknown as PaymentRow);
    const facts = folds ? items.filter((i) => isStateFact(i.sk)) : [];
    return { row: mergeFacts(row, facts as unknown as StateFact[]), stored: row.state, facts };
  }

  private get target(): MoveTarget {
    return { table: this.table, origin: this.origin };
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
