import { createHash } from "node:crypto";
import type { DynamoModel, Write } from "./dynamo-model";
import { DynamoError, validation } from "./errors";
import { prepareConditionCheck, prepareDelete, preparePut, prepareUpdate, requestKey } from "./item-writes";
import { readProjection, shaped } from "./ops-items";
import { checkInputs, checkTarget, type TransactAction } from "./transact-checks";

type Input = Record<string, unknown>;

const TOKEN_WINDOW_MS = 10 * 60 * 1000;
const KINDS = ["Put", "Update", "Delete", "ConditionCheck"] as const;

/** One item's outcome, as a CancellationReason. */
type Reason = { Code: string; Message?: string; Item?: Input };

function actionOf(entry: Input): TransactAction {
  const kinds = KINDS.filter((k) => entry[k] !== undefined);
  if (kinds.length !== 1)
    throw validation("TransactItems can only contain one of Check, Put, Update or Delete");
  const kind = kinds[0] as (typeof KINDS)[number];
  return [kind, entry[kind] as Input];
}

function plan(model: DynamoModel, kind: (typeof KINDS)[number], input: Input): Write | undefined {
  if (kind === "Put") return preparePut(model, input).write;
  if (kind === "Delete") return prepareDelete(model, input).write;
  if (kind === "Update") return prepareUpdate(model, input).write;
  prepareConditionCheck(model, input);
  return undefined;
}

/** TransactWriteItems: all or nothing; any failed condition cancels it with a reason per item, in item order. */
export function transactWriteItems(model: DynamoModel, input: Input): Input {
  const entries = (input.TransactItems ?? []) as Input[];
  if (entries.length === 0 || entries.length > 100) {
    throw validation(
      `1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length ${entries.length === 0 ? "greater than or equal to 1" : "less than or equal to 100"}`,
    );
  }
  const token = tokenState(model, input);
  if (token.replay) return {};
  const actions = entries.map(actionOf);
  checkInputs(actions);
  const writes: Write[] = [];
  const targets = new Set<string>();
  // Actions run in order, each refused for its table, key or item, then for an item an earlier action targets (a
  // refusal of the whole request, as on AWS), then planned. An update expression failing on its stored item (a
  // ValidationError reason) stops the transaction there, as DynamoDB Local stops at it: later actions go unchecked.
  let stopped = false;
  const reasons: Reason[] = actions.map(([kind, body]) => {
    if (stopped) return { Code: "None" };
    checkTarget(model, kind, body, targets);
    try {
      const w = plan(model, kind, body);
      if (w) writes.push(w);
      return { Code: "None" };
    } catch (e) {
      stopped = e instanceof DynamoError && e.haltsTransaction;
      return reasonFor(e, kind);
    }
  });
  if (reasons.some((r) => r.Code !== "None")) {
    throw new DynamoError(
      "TransactionCanceledException",
      `Transaction cancelled, please refer cancellation reasons for specific reasons [${reasons.map((r) => r.Code).join(", ")}]`,
      { CancellationReasons: reasons },
    );
  }
  model.commit(writes);
  token.remember();
  return {};
}

function reasonFor(e: unknown, kind: string): Reason {
  if (!(e instanceof DynamoError)) throw e;
  if (e.type === "ConditionalCheckFailedException") {
    const item = e.extra.Item as Input | undefined;
    // DynamoDB Local ends a ConditionCheck's message with a period, and the other actions' without.
    const message = kind === "ConditionCheck" ? `${e.message}.` : e.message;
    return { Code: "ConditionalCheckFailed", Message: message, ...(item ? { Item: item } : {}) };
  }
  if (e.type === "ValidationException" && e.itemLevel) return { Code: "ValidationError", Message: e.message };
  throw e;
}

/**
 * ClientRequestToken: the same token within 10 minutes of a committed transaction succeeds without writing again;
 * the same token with other parameters is refused. A cancelled transaction leaves no token behind.
 */
function tokenState(model: DynamoModel, input: Input): { replay: boolean; remember: () => void } {
  const token = input.ClientRequestToken as string | undefined;
  if (token === undefined) return { replay: false, remember: () => {} };
  const now = model.clock.now();
  const { ClientRequestToken: _t, ...rest } = input;
  const fingerprint = createHash("sha256").update(JSON.stringify(rest)).digest("hex");
  const seen = model.transactionTokens.get(token);
  if (seen && now - seen.atMs < TOKEN_WINDOW_MS) {
    if (seen.fingerprint !== fingerprint) {
      throw new DynamoError(
        "IdempotentParameterMismatchException",
        "The request uses the same client token as a previous, but non-identical request.",
      );
    }
    return { replay: true, remember: () => {} };
  }
  return { replay: false, remember: () => model.transactionTokens.set(token, { fingerprint, atMs: now }) };
}

/** TransactGetItems: a consistent snapshot of up to 100 items, in request order. */
export function transactGetItems(model: DynamoModel, input: Input): Input {
  const entries = (input.TransactItems ?? []) as Input[];
  if (entries.length === 0 || entries.length > 100)
    throw validation(
      "1 validation error detected: Value at 'transactItems' failed to satisfy constraint: Member must have length less than or equal to 100",
    );
  const responses = entries.map((e) => {
    const get = e.Get as Input;
    const table = model.table(get.TableName);
    const { key } = requestKey(table, get.Key);
    const item = table.items.get(key);
    return item ? { Item: shaped(item, readProjection(get)) } : {};
  });
  return { Responses: responses };
}
