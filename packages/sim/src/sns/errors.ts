/** An SNS error as the query protocol sends it: a code (the SDK's class is the code plus `Exception`) and a status. */
export class SnsError extends Error {
  constructor(
    readonly code: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = code;
  }
}

export const notFound = (message: string): SnsError => new SnsError("NotFound", 404, message);
export const invalidParameter = (message: string): SnsError =>
  new SnsError("InvalidParameter", 400, `Invalid parameter: ${message}`);
export const endpointDisabled = (): SnsError => new SnsError("EndpointDisabled", 400, "Endpoint is disabled");
export const emptyBatchRequest = (): SnsError =>
  new SnsError("EmptyBatchRequest", 400, "The batch request doesn't contain any entries.");
export const tooManyEntries = (n: number): SnsError =>
  new SnsError(
    "TooManyEntriesInBatchRequest",
    400,
    `The batch request contains more entries (${n}) than permissible (10).`,
  );
export const batchEntryIdsNotDistinct = (): SnsError =>
  new SnsError("BatchEntryIdsNotDistinct", 400, "Two or more batch entries in the request have the same Id.");
export const invalidBatchEntryId = (): SnsError =>
  new SnsError(
    "InvalidBatchEntryId",
    400,
    "The Id of a batch entry in a batch request doesn't abide by the specification.",
  );

/** A loud refusal naming what the model does not implement: never a silent difference from AWS. */
export function snsUnsupported(what: string): SnsError {
  return new SnsError("ModelUnsupportedException", 400, `The SNS model does not support ${what}`);
}
