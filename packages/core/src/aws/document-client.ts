import { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { takeFault } from "../faults/faults";

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

const byRegion = new Map<string, DynamoDBDocumentClient>();

/**
 * The claim store's client. In AWS it is the Region's own (an MRSC table has a replica in each Region). The
 * local stack has one database per Region, so in MRSC mode the standby's claims go to the primary's database
 * (`CLAIM_TABLE_REGION`): one strongly consistent store seen by both, as MRSC is. A `mrsc_write_conflict` fault
 * makes the next writes fail as a write racing another Region's does there.
 */
export function claimDocumentClient(claimRegion: string | undefined, mrsc: boolean): DynamoDBDocumentClient {
  if (!claimRegion && !mrsc) return documentClient();
  const key = `${claimRegion ?? ""}:${mrsc}`;
  let client = byRegion.get(key);
  if (!client) {
    const raw = new DynamoDBClient({ maxAttempts: 3, ...(claimRegion ? { region: claimRegion } : {}) });
    if (mrsc)
      raw.middlewareStack.add(injectedWriteConflict(), { step: "initialize", name: "eoMrscWriteConflict" });
    client = DynamoDBDocumentClient.from(raw, { marshallOptions: { removeUndefinedValues: true } });
    byRegion.set(key, client);
  }
  return client;
}

const WRITES = new Set(["PutItemCommand", "UpdateItemCommand", "DeleteItemCommand"]);

function injectedWriteConflict() {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's middleware signature is generic over every command.
  return (next: any, context: { commandName?: string }) => async (args: unknown) => {
    if (WRITES.has(context.commandName ?? "") && takeFault("mrsc_write_conflict") !== undefined) {
      throw Object.assign(new Error("Write conflicts with a write in another Region (local test fault)"), {
        name: "ReplicatedWriteConflictException",
        $fault: "client",
      });
    }
    return next(args);
  };
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
  return cancellationReasons(err).map((r) => r.Code ?? "None");
}
