import fc from "fast-check";
import { getItemArb, queryArb } from "./gen-reads";
import { itemArb, keyArb } from "./gen-values";
import { deleteItemArb, putItemArb, updateItemArb } from "./gen-writes";
import type { Op } from "./op";

const guardedWrite = fc.oneof(putItemArb, updateItemArb, deleteItemArb, queryArb);

type Input = Record<string, unknown>;
const valuesOf = (input: Input) => input.ExpressionAttributeValues as Record<string, unknown> | undefined;

/** A placeholder used in an expression but missing from ExpressionAttributeValues. */
const undefinedValue = guardedWrite
  .filter((op) => Object.keys(valuesOf(op.input) ?? {}).length > 0)
  .chain((op) =>
    fc.constantFrom(...Object.keys(valuesOf(op.input) ?? {})).map((drop): Op => {
      const values = { ...valuesOf(op.input) };
      delete values[drop];
      const input: Input = { ...op.input, ExpressionAttributeValues: values };
      if (Object.keys(values).length === 0) delete input.ExpressionAttributeValues;
      return { ...op, input, invalid: "undefined value" };
    }),
  );

/** A value or a name given but used by no expression. */
const unusedPlaceholder = fc.tuple(guardedWrite, fc.boolean()).map(([op, name]): Op => {
  const input: Input = name
    ? {
        ...op.input,
        ExpressionAttributeNames: { ...(op.input.ExpressionAttributeNames as object), "#unused": "x" },
      }
    : { ...op.input, ExpressionAttributeValues: { ...valuesOf(op.input), ":unused": { S: "x" } } };
  return { ...op, input, invalid: name ? "unused name" : "unused value" };
});

/** An update that writes a key attribute. */
const keyUpdate = fc
  .tuple(keyArb("ledger"), fc.constantFrom("pk", "sk"), fc.constantFrom("SET", "REMOVE"))
  .map(
    ([Key, attr, clause]): Op => ({
      kind: "UpdateItem",
      input: {
        TableName: "ledger",
        Key,
        UpdateExpression: clause === "SET" ? `SET ${attr} = :v` : `REMOVE ${attr}`,
        ...(clause === "SET" ? { ExpressionAttributeValues: { ":v": { S: "P9" } } } : {}),
      },
      invalid: "key attribute update",
    }),
  );

/** Items DynamoDB refuses: a key of the wrong type, an empty key, an empty set. */
const malformedItems = fc.oneof(
  itemArb("ledger").map(
    (item): Op => ({
      kind: "PutItem",
      input: { TableName: "ledger", Item: { ...item, pk: { N: "1" } } },
      invalid: "key of the wrong type",
    }),
  ),
  itemArb("claims").map(
    (item): Op => ({
      kind: "PutItem",
      input: { TableName: "claims", Item: { ...item, id: { S: "" } } },
      invalid: "empty string key",
    }),
  ),
  itemArb("totals").map(
    (item): Op => ({
      kind: "PutItem",
      input: { TableName: "totals", Item: { ...item, members: { SS: [] } } },
      invalid: "empty set",
    }),
  ),
);

/** Requests whose shape DynamoDB refuses before reading anything. */
const malformed = fc.oneof(
  malformedItems,
  fc.constant<Op>({
    kind: "GetItem",
    input: { TableName: "ledger", Key: { pk: { S: "P0" } } },
    invalid: "incomplete key",
  }),
  fc.constant<Op>({
    kind: "Query",
    input: {
      TableName: "ledger",
      IndexName: "gsi1",
      KeyConditionExpression: "gsi1pk = :g",
      ExpressionAttributeValues: { ":g": { S: "G1" } },
      ConsistentRead: true,
    },
    invalid: "consistent read on a global index",
  }),
  fc.constant<Op>({
    kind: "UpdateItem",
    input: {
      TableName: "ledger",
      Key: { pk: { S: "P0" }, sk: { S: "PAYMENT" } },
      UpdateExpression: "SET state = :v",
      ExpressionAttributeValues: { ":v": { S: "NEW" } },
    },
    invalid: "reserved word written bare",
  }),
  fc.constant<Op>({
    kind: "UpdateItem",
    input: {
      TableName: "ledger",
      Key: { pk: { S: "P1" }, sk: { S: "PAYMENT" } },
      UpdateExpression: "SET amount = :v REMOVE amount",
      ExpressionAttributeValues: { ":v": { N: "1" } },
    },
    invalid: "overlapping paths",
  }),
  fc.constant<Op>({
    kind: "PutItem",
    input: {
      TableName: "claims",
      Item: { id: { S: "C0" } },
      ConditionExpression: "attribute_not_exists(id)",
      ExpressionAttributeValues: {},
    },
    invalid: "empty value map",
  }),
  getItemArb.map(
    (op): Op => ({ ...op, input: { ...op.input, TableName: "missing" }, invalid: "no such table" }),
  ),
);

/** Invalid requests whose error type and message must agree between the model and DynamoDB Local. */
export const invalidArb: fc.Arbitrary<Op> = fc.oneof(undefinedValue, unusedPlaceholder, keyUpdate, malformed);
