import { CreateTableCommand, DeleteTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { createTableInput, physicalName, TABLE_NAMES } from "./tables";

/** A DynamoDB the corpus runs against: it makes the run's fresh tables and hands back a client on them. */
export interface Target {
  name: string;
  /** Creates the run's tables (named with `prefix`) and answers the client to send the run's ops to. */
  open(prefix: string): Promise<OpenTarget>;
}

export interface OpenTarget {
  client: DynamoDBClient;
  /** Drops what the run made. */
  close(): Promise<void>;
}

/**
 * DynamoDB Local: every access key is its own database there, so two targets on one process (the self-check that
 * runs before the model exists) need only two keys. No retries: a throttle or conflict must show, not be hidden.
 */
export function dynamoLocalTarget(endpoint: string, accessKeyId = "differential"): Target {
  const client = new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId, secretAccessKey: "local" },
    maxAttempts: 1,
  });
  return {
    name: `dynamodb-local(${accessKeyId})`,
    async open(prefix) {
      await createTables(client, prefix);
      return {
        client,
        close: async () => {
          await Promise.all(
            TABLE_NAMES.map((t) =>
              client.send(new DeleteTableCommand({ TableName: physicalName(prefix, t) })),
            ),
          );
        },
      };
    },
  };
}

/** Creates the corpus's tables through a client, all at once. */
export async function createTables(client: DynamoDBClient, prefix: string): Promise<void> {
  await Promise.all(TABLE_NAMES.map((t) => client.send(new CreateTableCommand(createTableInput(prefix, t)))));
}
