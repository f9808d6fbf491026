import type { TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { CHARGE_OPEN_STATES, isSwept, type PaymentState, REFUND_STATES } from "../payment/payment-state";
import { unsafeNoRefundTakeBack } from "../payment/payment-test-switches";
import {
  type EventState,
  journalAndOutbox,
  outboxAgain,
  refundFailedFact,
  refundJournalAndOutbox,
} from "./journal-and-outbox";
import {
  ANOMALY_INDEX_PK,
  type OutboxItem,
  type PaymentRow,
  padTime,
  paymentKey,
  sweepIndexKey,
  webhookInboxKey,
} from "./ledger-items";
import type { Move } from "./ledger-port";
import { unsafeNoRefundFailedNotice } from "./ledger-test-switches";
import { inFlightFact } from "./refund-in-flight-facts";
import { DECLINE_FACT_SK } from "./state-facts";

type TransactItem = NonNullable<
  ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]
>[number];

/** What a move writes, and the sort key of each put-if-absent fact among it (by position), to read a cancellation. */
export interface MoveItems {
  items: TransactItem[];
  factAt: Array<string | undefined>;
}

/** Where a move is written: the table, and the Region whose outbox items it makes. */
export interface MoveTarget {
  table: string;
  origin?: OutboxItem["origin_region"];
}

/**
 * The items of a move from `from` (the state as read, facts folded in) to `next`: the row, put on the condition that
 * its stored state is still `stored`, and the facts the move proves, each put only if absent. A fact found there
 * already (`present`: the same move ran in the other Region) is not put again; its event, if it has one, is.
 */
export function moveItems(
  target: MoveTarget,
  stored: PaymentState,
  from: PaymentState,
  next: PaymentRow,
  m: Move,
  present: ReadonlySet<string>,
): MoveItems {
  const out: MoveItems = { items: [rowPut(target.table, next, stored, m.now)], factAt: [undefined] };
  for (const fact of factsOf(target, from, next, m.now)) {
    if (!present.has(fact.sk)) {
      out.items.push({ Put: fact.put });
      out.factAt.push(fact.sk);
    } else if (fact.event) {
      const again = outboxAgain(target.table, next, m.now, fact.event, target.origin, fact.noticeOnly);
      out.items.push({ Put: again });
      out.factAt.push(undefined);
    }
  }
  if (m.inboxEventId) {
    const inbox = { ...webhookInboxKey(m.inboxEventId), payment_id: next.payment_id, at: m.now };
    out.items.push({
      Put: { TableName: target.table, Item: inbox, ConditionExpression: "attribute_not_exists(pk)" },
    });
    out.factAt.push(undefined);
  }
  return out;
}

// The row is rewritten whole on the condition that its state is still the one stored: a compare-and-set that also
// writes the sparse index fields from the target state, so that a row read back with its old entry leaves the index
// when it settles (an anomaly stays listed for a person).
/** The put of a row on the condition that its stored state is still `stored`. */
export function rowPut(table: string, next: PaymentRow, stored: PaymentState, now: number): TransactItem {
  const index = isSwept(next.state)
    ? sweepIndexKey(next.state, next.payment_id, now)
    : next.anomaly
      ? { gsi1pk: ANOMALY_INDEX_PK, gsi1sk: padTime(next.anomaly.at) }
      : {};
  return {
    Put: {
      TableName: table,
      Item: { ...paymentKey(next.payment_id), ...next, ...index },
      ConditionExpression: "#state = :from",
      ExpressionAttributeNames: { "#state": "state" },
      ExpressionAttributeValues: { ":from": stored },
    },
  };
}

// The charge's journal entry is written once, when the charge settles (into SUCCEEDED, or straight into REFUNDED when
// the PSP shows it refunded already), not when a refused refund returns the payment to SUCCEEDED.
function factsOf(target: MoveTarget, from: PaymentState, next: PaymentRow, now: number): Fact[] {
  const { table, origin } = target;
  const settles =
    CHARGE_OPEN_STATES.includes(from) && (next.state === "SUCCEEDED" || next.state === "REFUNDED");
  const facts: Fact[] = [];
  if (settles)
    facts.push(...journalAndOutbox(table, next, now, origin).map((put) => entry(put, "SUCCEEDED")));
  if (next.state === "REFUNDED")
    facts.push(...refundJournalAndOutbox(table, next, now, origin).map((put) => entry(put, "REFUNDED")));
  if (next.state === "FAILED") facts.push({ sk: DECLINE_FACT_SK, put: declineFact(table, next, now) });
  if (next.state === "REFUND_FAILED") facts.push(refundFailed(target, from, next, now));
  facts.push(...refundInFlight(table, from, next, now));
  return facts;
}

// A refund attempt's start (into REFUND_PENDING from outside a refund) is a fact, and so is its refusal (back to
// SUCCEEDED): under last writer wins the other Region's later write of an older copy must not lose the refund.
function refundInFlight(table: string, from: PaymentState, next: PaymentRow, now: number): Fact[] {
  const inRefund = REFUND_STATES.includes(from);
  const starts = next.state === "REFUND_PENDING" && !inRefund;
  const refused = next.state === "SUCCEEDED" && inRefund;
  if (!starts && !refused) return [];
  const put = inFlightFact(table, next, starts ? "REFUND_PENDING" : "REFUND_REFUSED", now);
  return put ? [{ sk: put.Item.sk, put }] : [];
}

// Only a refund that was answered done debited the merchant (the REFUNDED entry, read folded into `from`): its
// failure takes the debit back, once, through the outbox. One the PSP failed while it was pending moved no money,
// but its buyer, told 202 or nothing, is still owed the one notification: its event is a notice only.
function refundFailed(target: MoveTarget, from: PaymentState, next: PaymentRow, now: number): Fact {
  const reverses = from === "REFUNDED" && !unsafeNoRefundTakeBack();
  const event = reverses ? "reverses" : unsafeNoRefundFailedNotice() ? "none" : "notice";
  const put = refundFailedFact(target.table, next, now, event, target.origin);
  if (event === "none") return { sk: put.Item.sk, put };
  return { sk: put.Item.sk, put, event: "REFUND_FAILED", ...(reverses ? {} : { noticeOnly: true }) };
}

type Put = NonNullable<TransactItem["Put"]>;
type Fact = { sk: string; put: Put; event?: EventState; noticeOnly?: boolean };

const entry = (put: Put & { Item: { sk: string } }, event: Fact["event"]): Fact => ({
  sk: put.Item.sk,
  put,
  event,
});

function declineFact(table: string, row: PaymentRow, now: number) {
  const { pk } = paymentKey(row.payment_id);
  return {
    TableName: table,
    Item: { pk, sk: DECLINE_FACT_SK, decline_code: row.decline_code, at: now },
    ConditionExpression: "attribute_not_exists(pk)",
  };
}
