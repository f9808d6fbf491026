/** The short names of the errors the model answers with; the handler prefixes DynamoDB's namespace. */
export type DynamoErrorType =
  | "ValidationException"
  | "ConditionalCheckFailedException"
  | "TransactionCanceledException"
  | "ResourceNotFoundException"
  | "ResourceInUseException"
  | "IdempotentParameterMismatchException"
  | "SerializationException"
  | "UnknownOperationException"
  | "ModelUnsupportedException";

/** A service-shaped error: `type` becomes `__type`, `extra` is merged into the reply body (Item, CancellationReasons). */
export class DynamoError extends Error {
  constructor(
    readonly type: DynamoErrorType,
    message: string,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = type;
  }

  /** Set when the error concerns one item's data (in a transaction: a ValidationError reason, not a request error). */
  itemLevel = false;

  /** Set on an update failing on its stored item: a transaction stops there (DynamoDB Local stops at it). */
  haltsTransaction = false;
}

/**
 * Marks errors raised while applying a write to its item, so a transaction reports them as that item's reason;
 * `halts`: the transaction goes no further (an update expression failing on the stored item).
 */
export function asItemLevel<T>(run: () => T, halts = false): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof DynamoError) {
      e.itemLevel = true;
      e.haltsTransaction = halts;
    }
    throw e;
  }
}

/** A ValidationException with DynamoDB's message. */
export function validation(message: string): DynamoError {
  return new DynamoError("ValidationException", message);
}

/** A loud refusal naming a feature the model does not implement (never a silent difference from AWS). */
export function unsupported(feature: string): DynamoError {
  return new DynamoError("ModelUnsupportedException", `The DynamoDB model does not support ${feature}`);
}

/** The table does not exist (DynamoDB Local's words; the service says "Requested resource not found"). */
export function noTable(): DynamoError {
  return new DynamoError("ResourceNotFoundException", "Cannot do operations on a non-existent table");
}

/** The error a failed ConditionExpression raises, with the old item when the caller asked for ALL_OLD. */
export function conditionFailed(item?: Record<string, unknown>): DynamoError {
  return new DynamoError(
    "ConditionalCheckFailedException",
    "The conditional request failed",
    item ? { Item: item } : {},
  );
}
