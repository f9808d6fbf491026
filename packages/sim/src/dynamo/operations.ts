import type { DynamoModel } from "./dynamo-model";
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
