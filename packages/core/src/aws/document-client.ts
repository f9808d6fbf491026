import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";

let shared: DynamoDBDocumentClient | undefined;

/**
 * One DynamoDB document client per process, created on first use so that it picks up the
 * environment (Region, and locally AWS_ENDPOINT_URL_DYNAMODB) that the runtime has set by then.
 */
export function documentClient(): DynamoDBDocumentClient {
  shared ??= DynamoDBDocumentClient.from(new DynamoDBClient({ maxAttempts: 3 }), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return shared;
}

/** Whether an error is DynamoDB's failed condition (alone or inside a cancelled transaction). */
export function isConditionFailure(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  return name === "ConditionalCheckFailedException" || name === "TransactionCanceledException";
}

/** The cancellation reasons of a failed transaction, each with its code and (where asked for) the item. */
export function cancellationReasons(err: unknown): Array<{ Code?: string; Item?: Record<string, unknown> }> {
  return (
    (err as { CancellationReasons?: Array<{ Code?: string; Item?: Record<string, unknown> }> })
      ?.CancellationReasons ?? []
  );
}

/** The cancellation reason codes of a cancelled transaction, in item order. */
export function cancellationCodes(err: unknown): string[] {
  const reasons = (err as { CancellationReasons?: Array<{ Code?: string }> })?.CancellationReasons ?? [];
  return reasons.map((r) => r.Code ?? "None");
}
