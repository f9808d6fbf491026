import type { DynamoModel, Write } from "./dynamo-model";
import { validation } from "./errors";
import { prepareDelete, preparePut, requestKey } from "./item-writes";
import { readProjection, shaped } from "./ops-items";

type Input = Record<string, unknown>;

/** BatchGetItem: every key answered at once (the model never leaves UnprocessedKeys). */
export function batchGetItem(model: DynamoModel, input: Input): Input {
  const requests = (input.RequestItems ?? {}) as Record<string, Input>;
  const total = Object.values(requests).reduce((n, r) => n + ((r.Keys as unknown[]) ?? []).length, 0);
  if (total === 0)
    throw validation(
      "1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  if (total > 100) throw validation("Too many items requested for the BatchGetItem call");
  const responses: Record<string, Input[]> = {};
  for (const [name, r] of Object.entries(requests)) {
    const table = model.table(name);
    const paths = readProjection(r);
    const seen = new Set<string>();
    responses[name] = [];
    for (const raw of (r.Keys as unknown[]) ?? []) {
      const { key } = requestKey(table, raw);
      if (seen.has(key)) throw validation("Provided list of item keys contains duplicates");
      seen.add(key);
      const item = table.items.get(key);
      if (item) responses[name].push(shaped(item, paths));
    }
  }
  return { Responses: responses, UnprocessedKeys: {} };
}

/** BatchWriteItem: puts and deletes, each applied as its own write (no conditions, not atomic as a whole on AWS). */
export function batchWriteItem(model: DynamoModel, input: Input): Input {
  const requests = (input.RequestItems ?? {}) as Record<string, Input[]>;
  const total = Object.values(requests).reduce((n, r) => n + r.length, 0);
  if (total === 0)
    throw validation(
      "1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Member must have length greater than or equal to 1",
    );
  if (total > 25)
    throw validation(
      "1 validation error detected: Value at 'requestItems' failed to satisfy constraint: Member must have length less than or equal to 25",
    );
  const writes: Write[] = [];
  const seen = new Set<string>();
  for (const [name, list] of Object.entries(requests)) {
    for (const r of list) {
      const put = r.PutRequest as Input | undefined;
      const del = r.DeleteRequest as Input | undefined;
      if (!put === !del)
        throw validation(
          "Supplied AttributeValue has more than one datatypes set, must contain exactly one of the supported datatypes",
        );
      const { write } = put
        ? preparePut(model, { TableName: name, Item: put.Item })
        : prepareDelete(model, { TableName: name, Key: del?.Key });
      const id = `${name}\u0000${write.key}`;
      if (seen.has(id)) throw validation("Provided list of item keys contains duplicates");
      seen.add(id);
      writes.push(write);
    }
  }
  model.commit(writes);
  return { UnprocessedItems: {} };
}
