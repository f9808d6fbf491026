import { unmarshall } from "@aws-sdk/util-dynamodb";

type Item = Record<string, unknown>;

const ATTRIBUTE_TYPES = new Set(["S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"]);

// An attribute value of the low-level API: an object with one type key such as {"S": "…"}.
const isAttribute = (v: unknown) =>
  typeof v === "object" &&
  v !== null &&
  Object.keys(v).length === 1 &&
  ATTRIBUTE_TYPES.has(Object.keys(v)[0] ?? "");

/** Whether an item or key is in the low-level API's form (a raw client's request, not a document client's). */
export function isMarshalled(item: unknown): boolean {
  return (
    typeof item === "object" &&
    item !== null &&
    Object.values(item).length > 0 &&
    Object.values(item).every(isAttribute)
  );
}

const plain = (item: unknown) => (isMarshalled(item) ? unmarshall(item as never) : (item as Item));

/**
 * A request's input and output with items in plain JavaScript, whichever client sent it: the document client
 * marshals after the meter's step, a raw client (Powertools' persistence layer) before it.
 */
export function nativeInput(input: Item): Item {
  const out: Item = { ...input };
  if (input.Item) out.Item = plain(input.Item);
  if (input.Key) out.Key = plain(input.Key);
  if (input.ExpressionAttributeValues) out.ExpressionAttributeValues = plain(input.ExpressionAttributeValues);
  if (Array.isArray(input.TransactItems))
    out.TransactItems = (input.TransactItems as Array<Record<string, Item>>).map((op) =>
      Object.fromEntries(Object.entries(op).map(([kind, body]) => [kind, nativeInput(body)])),
    );
  return out;
}

/** A read's output with its items in plain JavaScript. */
export function nativeOutput(output: Item | undefined): Item | undefined {
  if (!output) return output;
  return {
    ...output,
    ...(output.Item ? { Item: plain(output.Item) } : {}),
    ...(Array.isArray(output.Items) ? { Items: (output.Items as unknown[]).map(plain) } : {}),
    ...(Array.isArray(output.Responses)
      ? { Responses: (output.Responses as Array<{ Item?: unknown }>).map((r) => ({ Item: plain(r.Item) })) }
      : {}),
  };
}
