/**
 * SQS errors as the service sends them over AWS JSON 1.0 in query-compatible mode: the shape name in `__type`, and
 * the legacy query code in the `x-amzn-query-error` header, from which the SDK picks its error class.
 */
export class SqsError extends Error {
  constructor(
    /** The shape name (`QueueDoesNotExist`), or the bare code when the SDK models no shape for it. */
    readonly shape: string,
    /** The query-protocol code (`AWS.SimpleQueueService.NonExistentQueue`). */
    readonly queryCode: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = shape;
  }
}

const error =
  (shape: string, queryCode: string, status = 400) =>
  (message: string): SqsError =>
    new SqsError(shape, queryCode, status, message);

export const queueDoesNotExist = (): SqsError =>
  error(
    "QueueDoesNotExist",
    "AWS.SimpleQueueService.NonExistentQueue",
  )("The specified queue does not exist.");
export const queueNameExists = error("QueueNameExists", "QueueAlreadyExists");
export const invalidParameterValue = error("InvalidParameterValue", "InvalidParameterValue");
export const missingParameter = (name: string): SqsError =>
  error("MissingParameter", "MissingParameter")(`The request must contain the parameter ${name}.`);
export const invalidAttributeName = error("InvalidAttributeName", "InvalidAttributeName");
export const invalidAttributeValue = error("InvalidAttributeValue", "InvalidAttributeValue");
export const invalidMessageContents = error("InvalidMessageContents", "InvalidMessageContents");
export const receiptHandleIsInvalid = (handle: string): SqsError =>
  error(
    "ReceiptHandleIsInvalid",
    "ReceiptHandleIsInvalid",
    404,
  )(`The input receipt handle "${handle}" is not a valid receipt handle.`);
export const messageNotInflight = (): SqsError =>
  error("MessageNotInflight", "AWS.SimpleQueueService.MessageNotInflight")("The message is not in flight.");
export const purgeQueueInProgress = (queueUrl: string): SqsError =>
  error(
    "PurgeQueueInProgress",
    "AWS.SimpleQueueService.PurgeQueueInProgress",
    403,
  )(`Only one PurgeQueue operation on ${queueUrl} is allowed every 60 seconds.`);
export const emptyBatchRequest = (): SqsError =>
  error(
    "EmptyBatchRequest",
    "AWS.SimpleQueueService.EmptyBatchRequest",
  )("There should be at least one entry in the request.");
export const tooManyEntriesInBatchRequest = (n: number): SqsError =>
  error(
    "TooManyEntriesInBatchRequest",
    "AWS.SimpleQueueService.TooManyEntriesInBatchRequest",
  )(`Maximum number of entries per request are 10. You have sent ${n}.`);
export const batchEntryIdsNotDistinct = (id: string): SqsError =>
  error("BatchEntryIdsNotDistinct", "AWS.SimpleQueueService.BatchEntryIdsNotDistinct")(`Id ${id} repeated.`);
export const invalidBatchEntryId = (): SqsError =>
  error(
    "InvalidBatchEntryId",
    "AWS.SimpleQueueService.InvalidBatchEntryId",
  )(
    "A batch entry id can only contain alphanumeric characters, hyphens and underscores. It can be at most 80 letters long.",
  );
export const batchRequestTooLong = (limit: number): SqsError =>
  error(
    "BatchRequestTooLong",
    "AWS.SimpleQueueService.BatchRequestTooLong",
  )(`Batch requests cannot be longer than ${limit} bytes.`);

/** A loud refusal naming what the model does not implement: never a silent difference from AWS. */
export function sqsUnsupported(what: string): SqsError {
  return new SqsError(
    "ModelUnsupportedException",
    "ModelUnsupportedException",
    400,
    `The SQS model does not support ${what}`,
  );
}

/** The message SQS gives when a parameter's value is refused: `Value X for parameter P is invalid. Reason: R`. */
export function badValue(parameter: string, value: unknown, reason: string): SqsError {
  return invalidParameterValue(
    `Value ${String(value)} for parameter ${parameter} is invalid. Reason: ${reason}`,
  );
}
