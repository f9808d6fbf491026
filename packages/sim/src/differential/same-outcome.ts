import { isDeepStrictEqual } from "node:util";
import { canonicalJson } from "./normalize";
import type { Item, Op, Outcome } from "./op";
import { keyNames, type TableName } from "./tables";

/**
 * Where DynamoDB Local's wording is known to differ from DynamoDB's own, the model follows AWS and the pair below
 * counts as agreeing: Local's message → AWS's. Each entry needs evidence that AWS answers the second text; the
 * error's name must still agree, and every other message is compared exactly.
 */
export const LOCAL_WORDING: Record<string, string> = {
  // GetItem/DeleteItem/UpdateItem with a key that lacks the sort key (or carries an extra attribute): AWS answers
  // "The provided key element does not match the schema" (the message users of the service report, e.g.
  // github.com/aws/aws-sdk-php/issues/1369); Local's text is the one its users report against Local only
  // (github.com/aws/aws-sdk-js/issues/1570, awsdocs/aws-javascript-developer-guide-v2#32).
  "The number of conditions on the keys is invalid": "The provided key element does not match the schema",
};

/**
 * Messages compared up to a point only. Paths that overlap (in an update or a projection): DynamoDB Local names a
 * pair of paths that need not overlap at all (for `SET nums = nums + :a, nums = :b DELETE members :c` it names
 * [nums] and [members]; for the projection `list[0], data.a, list` it names [list, [0]] and [data, a]), so its pair
 * cannot be the service's: the refusal and its text up to "path one:" must agree, the pair is not compared.
 */
const OVERLAP = "Two document paths overlap with each other; must remove or rewrite one of these paths;";

function sameUpToOverlapPair(reference: string, subject: string): boolean {
  const cut = (m: string) => m.slice(0, m.indexOf(OVERLAP) + OVERLAP.length);
  return reference.includes(OVERLAP) && subject.includes(OVERLAP) && cut(reference) === cut(subject);
}

const DUPLICATE_TARGET = "Transaction request cannot include multiple operations on one item";

/**
 * Whether the subject answered as the reference did: exactly, or in AWS's wording where Local's differs, or with
 * AWS's order of checks where Local's differs (see refusedBeforeConditions).
 */
export function sameOutcome(reference: Outcome | undefined, subject: Outcome | undefined, op?: Op): boolean {
  if (isDeepStrictEqual(reference, subject)) return true;
  if (!reference || !subject || !("error" in reference) || !("error" in subject)) return false;
  if (op && refusedBeforeConditions(reference, subject, op)) return true;
  if (op && refusedForAnotherTable(reference, subject, op)) return true;
  if (op && cancelledOnStoredData(reference, subject, op)) return true;
  if (
    reference.error.name === subject.error.name &&
    sameUpToOverlapPair(reference.error.message, subject.error.message)
  )
    return true;
  const aws = LOCAL_WORDING[reference.error.message];
  return aws !== undefined && isDeepStrictEqual({ ...reference.error, message: aws }, subject.error);
}

/**
 * A transaction that targets one item twice: DynamoDB refuses it as invalid input before it runs (the request's
 * validation, like every other ValidationException of TransactWriteItems), but DynamoDB Local evaluates the
 * conditions and updates first and answers TransactionCanceledException when a condition fails, or the error of an
 * update that fails on the stored item (checked against Local: two ConditionChecks on one item, the first
 * failing). Local runs the actions in order and looks for the duplicate only once an action's condition held (on
 * the item as the earlier actions left it), so when the second action's condition fails it goes on and may refuse
 * a later action's table, key or item instead (checked against Local: Delete of C0, a failing ConditionCheck of C0,
 * then a Put whose index key is a number set answers "Invalid attribute value type"). AWS documents that "no two
 * actions can target the same item" (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TransactWriteItems.html).
 * The model follows AWS; only these pairs are let through.
 */
function refusedBeforeConditions(reference: ErrorOutcome, subject: ErrorOutcome, op: Op): boolean {
  return (
    op.kind === "TransactWriteItems" &&
    (reference.error.name === "TransactionCanceledException" ||
      DATA_DEPENDENT.has(reference.error.message) ||
      isLaterActionCheck(reference)) &&
    subject.error.name === "ValidationException" &&
    subject.error.message === DUPLICATE_TARGET &&
    targetsOneItemTwice(op)
  );
}

/** Refusals of one action's table, key or item, which Local reaches past an unnoticed duplicate target. */
function isLaterActionCheck(reference: ErrorOutcome): boolean {
  const { name, message } = reference.error;
  if (name === "ResourceNotFoundException") return true;
  return (
    name === "ValidationException" &&
    (LATER_ACTION_CHECKS.has(message) || message.startsWith(EMPTY_KEY_PREFIX))
  );
}

const LATER_ACTION_CHECKS = new Set([
  "Invalid attribute value type",
  "One of the required keys was not given a value",
  "One or more parameter values were invalid: Type mismatch for key",
  "The number of conditions on the keys is invalid",
  "The provided key element does not match the schema",
]);

/** The start of the refusals of an empty string or binary in a key or an index key. */
const EMPTY_KEY_PREFIX = "One or more parameter values are not valid.";

type ErrorOutcome = Extract<Outcome, { error: unknown }>;

/**
 * A batch request naming several tables, with invalid requests for more than one of them: DynamoDB refuses the
 * whole batch with the first refusal it meets, and RequestItems is a map of table names to requests
 * (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_BatchWriteItem.html#DDB-BatchWriteItem-request-RequestItems,
 * likewise for BatchGetItem), which sets no order among its tables. DynamoDB Local checks them in an order that
 * follows its hashing of the table names, so with the run's prefix on them its answer changes from run to run
 * (checked: one BatchWriteItem, a duplicate key for totals and an index key of the wrong type for ledger, answered
 * one or the other on 40 replays with fresh prefixes). Two refusals of such a batch count as agreeing; both must
 * still be ValidationExceptions, and the tables after are still compared.
 */
function refusedForAnotherTable(reference: ErrorOutcome, subject: ErrorOutcome, op: Op): boolean {
  if (op.kind !== "BatchWriteItem" && op.kind !== "BatchGetItem") return false;
  const tables = Object.keys((op.input.RequestItems ?? {}) as Record<string, unknown>);
  return (
    tables.length > 1 &&
    reference.error.name === "ValidationException" &&
    subject.error.name === "ValidationException"
  );
}

/** Refusals that depend on the item as stored, not on the request alone. */
const DATA_DEPENDENT = new Set([
  "The provided expression refers to an attribute that does not exist in the item",
  "An operand in the update expression has an incorrect data type",
  "The document path provided in the update expression is invalid for update",
  "DynamoDB only supports precision up to 38 digits",
  "Number overflow. Attempting to store a number with magnitude larger than supported range",
]);

/**
 * An update in a transaction that fails on the item as stored (`SET n = n + :one` where n is missing): AWS documents
 * that it cancels the transaction ("a similar validation error occurs because of changes made by the
 * transaction"; TransactionCanceledException in the API reference), the action's reason being ValidationError
 * with the message; DynamoDB Local answers the message as a top-level ValidationException instead. The model
 * follows AWS; one reason must be ValidationError with Local's message. The other actions' reasons go unchecked
 * here, since Local stopped at the first failure and answered none of them.
 */
function cancelledOnStoredData(reference: ErrorOutcome, subject: ErrorOutcome, op: Op): boolean {
  if (op.kind !== "TransactWriteItems" || reference.error.name !== "ValidationException") return false;
  if (!DATA_DEPENDENT.has(reference.error.message) || subject.error.name !== "TransactionCanceledException")
    return false;
  const reasons = (subject.error.CancellationReasons ?? []) as { Code?: string; Message?: string }[];
  return reasons.some((r) => r.Code === "ValidationError" && r.Message === reference.error.message);
}

function targetsOneItemTwice(op: Op): boolean {
  const actions = (op.input.TransactItems ?? []) as Record<
    string,
    { TableName?: string; Key?: Item; Item?: Item }
  >[];
  const seen = new Set<string>();
  for (const action of actions) {
    const body = Object.values(action)[0];
    if (!body?.TableName) continue;
    const table = body.TableName as TableName;
    const source = body.Key ?? body.Item ?? {};
    const key = `${table}|${keyNames(table)
      .map((k) => canonicalJson(source[k]))
      .join("|")}`;
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}
