import type { DynamoModel } from "./dynamo-model";
import { unsupported } from "./errors";
import { batchGetItem, batchWriteItem } from "./ops-batch";
import { deleteItem, getItem, putItem, updateItem } from "./ops-items";
import { query, scan } from "./ops-query";
import {
  createTable,
  deleteTable,
  describeTable,
  describeTimeToLive,
  listTables,
  updateTimeToLive,
} from "./ops-tables";
import { transactGetItems, transactWriteItems } from "./ops-transact";

/** An operation of the DynamoDB JSON protocol: request body in, reply body out (or a thrown DynamoError). */
export type Operation = (model: DynamoModel, input: Record<string, unknown>) => Record<string, unknown>;

/** The operations the model answers, by their X-Amz-Target name; anything else is refused as unsupported. */
export const OPERATIONS: Record<string, Operation> = {
  CreateTable: createTable,
  DescribeTable: describeTable,
  DeleteTable: deleteTable,
  ListTables: listTables,
  UpdateTimeToLive: updateTimeToLive,
  DescribeTimeToLive: describeTimeToLive,
  GetItem: getItem,
  PutItem: putItem,
  UpdateItem: updateItem,
  DeleteItem: deleteItem,
  Query: query,
  Scan: scan,
  BatchGetItem: batchGetItem,
  BatchWriteItem: batchWriteItem,
  TransactWriteItems: transactWriteItems,
  TransactGetItems: transactGetItems,
};

/**
 * Runs one operation of the JSON protocol on a model, answering the reply body or throwing a DynamoError. Kept
 * beside the operations rather than on the model, which they all use: no import circle between them.
 */
export function executeOperation(
  model: DynamoModel,
  operation: string,
  input: Record<string, unknown>,
): Record<string, unknown> {
  const op = OPERATIONS[operation];
  if (!op) throw unsupported(`the operation ${operation}`);
  // The model keeps no capacity or item-collection figures: asking for them is refused, not answered empty.
  for (const p of ["ReturnConsumedCapacity", "ReturnItemCollectionMetrics"]) {
    if (input[p] !== undefined && input[p] !== "NONE") throw unsupported(`${p}=${String(input[p])}`);
  }
  return op(model, input);
}
