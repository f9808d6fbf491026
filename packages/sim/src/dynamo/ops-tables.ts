import type { DynamoModel } from "./dynamo-model";
import { DynamoError, validation } from "./errors";
import { checkTableName } from "./request-checks";
import type { IndexDef, KeySchema, Table } from "./table";
import { itemSize } from "./values";

type Input = Record<string, unknown>;
type RawKey = Array<{ AttributeName: string; KeyType: string }>;

function keySchema(raw: unknown, where: string): KeySchema {
  const list = (raw ?? []) as RawKey;
  const hash = list.find((k) => k.KeyType === "HASH")?.AttributeName;
  const range = list.find((k) => k.KeyType === "RANGE")?.AttributeName;
  if (!hash || list.length > 2 || (list.length === 2 && !range)) {
    throw validation(
      `1 validation error detected: Invalid KeySchema in ${where}: Some index key attributes are not defined`,
    );
  }
  return range ? { hash, range } : { hash };
}

function indexDef(raw: Input, kind: "GSI" | "LSI"): IndexDef {
  const projection = (raw.Projection ?? {}) as { ProjectionType?: string; NonKeyAttributes?: string[] };
  const type = (projection.ProjectionType ?? "ALL") as IndexDef["projection"]["type"];
  return {
    name: String(raw.IndexName),
    kind,
    key: keySchema(raw.KeySchema, String(raw.IndexName)),
    projection: { type, include: projection.NonKeyAttributes ?? [] },
    raw,
  };
}

function attributeTypes(raw: unknown): Record<string, "S" | "N" | "B"> {
  const out: Record<string, "S" | "N" | "B"> = {};
  for (const d of (raw ?? []) as Array<{ AttributeName: string; AttributeType: string }>) {
    if (!["S", "N", "B"].includes(d.AttributeType))
      throw validation(`Member must satisfy enum value set: [S, N, B]`);
    out[d.AttributeName] = d.AttributeType as "S" | "N" | "B";
  }
  return out;
}

function checkDefinitions(key: KeySchema, indexes: IndexDef[], types: Record<string, string>): void {
  const used = new Set<string>();
  for (const k of [key, ...indexes.map((i) => i.key)]) for (const n of [k.hash, k.range]) if (n) used.add(n);
  for (const n of used) {
    if (!types[n])
      throw validation(
        "One or more parameter values were invalid: Some index key attributes are not defined in AttributeDefinitions. Keys: [" +
          n +
          "], AttributeDefinitions: [" +
          Object.keys(types).join(", ") +
          "]",
      );
  }
  if (used.size !== Object.keys(types).length) {
    throw validation(
      "One or more parameter values were invalid: Number of attributes in KeySchema does not exactly match number of attributes defined in AttributeDefinitions",
    );
  }
  for (const i of indexes) {
    if (i.kind === "LSI" && (i.key.hash !== key.hash || !key.range)) {
      throw validation(
        "One or more parameter values were invalid: Index KeySchema does not have a range key for index: " +
          i.name,
      );
    }
  }
}

/** CreateTable: the table is ACTIVE at once (the model has no CREATING phase). */
export function createTable(model: DynamoModel, input: Input): Input {
  const name = checkTableName(input.TableName);
  if (model.tables.has(name))
    throw new DynamoError("ResourceInUseException", "Cannot create preexisting table");
  const key = keySchema(input.KeySchema, "table");
  const indexes = [
    ...((input.GlobalSecondaryIndexes ?? []) as Input[]).map((i) => indexDef(i, "GSI")),
    ...((input.LocalSecondaryIndexes ?? []) as Input[]).map((i) => indexDef(i, "LSI")),
  ];
  const types = attributeTypes(input.AttributeDefinitions);
  checkDefinitions(key, indexes, types);
  const stream = input.StreamSpecification as Table["stream"];
  const table: Table = {
    name,
    key,
    attributeTypes: types,
    indexes: new Map(indexes.map((i) => [i.name, i])),
    stream: stream?.StreamEnabled ? stream : undefined,
    createdAtMs: model.clock.now(),
    region: model.region,
    raw: input,
    items: new Map(),
  };
  model.tables.set(name, table);
  return { TableDescription: describe(table) };
}

const arnPrefix = (t: Table) => `arn:aws:dynamodb:${t.region}:000000000000:table/`;

function describe(t: Table): Input {
  const ARN = arnPrefix(t);
  const bytes = [...t.items.values()].reduce((n, i) => n + itemSize(i), 0);
  const indexes = [...t.indexes.values()];
  const describeIndex = (i: IndexDef) => ({
    ...i.raw,
    IndexStatus: "ACTIVE",
    IndexArn: `${ARN}${t.name}/index/${i.name}`,
    ItemCount: [...t.items.values()].filter((x) => x[i.key.hash] && (!i.key.range || x[i.key.range])).length,
  });
  const gsis = indexes.filter((i) => i.kind === "GSI").map(describeIndex);
  const lsis = indexes
    .filter((i) => i.kind === "LSI")
    .map((i) => {
      const { IndexStatus: _status, ...rest } = describeIndex(i);
      return rest;
    });
  const label = new Date(t.createdAtMs).toISOString().replace("Z", "");
  return {
    TableName: t.name,
    TableStatus: "ACTIVE",
    TableArn: `${ARN}${t.name}`,
    TableId: `00000000-0000-0000-0000-${String(t.createdAtMs).padStart(12, "0").slice(-12)}`,
    CreationDateTime: t.createdAtMs / 1000,
    KeySchema: t.raw.KeySchema,
    AttributeDefinitions: t.raw.AttributeDefinitions,
    ItemCount: t.items.size,
    TableSizeBytes: bytes,
    ProvisionedThroughput: { ReadCapacityUnits: 0, WriteCapacityUnits: 0, NumberOfDecreasesToday: 0 },
    ...(t.raw.BillingMode ? { BillingModeSummary: { BillingMode: t.raw.BillingMode } } : {}),
    ...(gsis.length ? { GlobalSecondaryIndexes: gsis } : {}),
    ...(lsis.length ? { LocalSecondaryIndexes: lsis } : {}),
    ...(t.stream
      ? {
          StreamSpecification: t.stream,
          LatestStreamLabel: label,
          LatestStreamArn: `${ARN}${t.name}/stream/${label}`,
        }
      : {}),
  };
}

/** DescribeTable. */
export function describeTable(model: DynamoModel, input: Input): Input {
  return { Table: describe(model.table(input.TableName)) };
}

/** DeleteTable: gone at once (no DELETING phase); its items go without change records, as a stream ends. */
export function deleteTable(model: DynamoModel, input: Input): Input {
  const t = model.table(input.TableName);
  model.tables.delete(t.name);
  return { TableDescription: { ...describe(t), TableStatus: "DELETING" } };
}

/** ListTables, in name order, paged by ExclusiveStartTableName and Limit. */
export function listTables(model: DynamoModel, input: Input): Input {
  const names = [...model.tables.keys()].sort();
  const start = input.ExclusiveStartTableName as string | undefined;
  const from = start ? names.filter((n) => n > start) : names;
  const limit = Number(input.Limit ?? 100);
  const page = from.slice(0, limit);
  return {
    TableNames: page,
    ...(from.length > limit ? { LastEvaluatedTableName: page[page.length - 1] } : {}),
  };
}

/** UpdateTimeToLive: enables or disables TTL on one attribute (sweepExpired acts on it). */
export function updateTimeToLive(model: DynamoModel, input: Input): Input {
  const t = model.table(input.TableName);
  const spec = input.TimeToLiveSpecification as { AttributeName: string; Enabled: boolean };
  if (spec.Enabled && t.ttlAttribute) throw validation("TimeToLive is already enabled");
  if (!spec.Enabled && !t.ttlAttribute) throw validation("TimeToLive is already disabled");
  t.ttlAttribute = spec.Enabled ? spec.AttributeName : undefined;
  return { TimeToLiveSpecification: spec };
}

/** DescribeTimeToLive. */
export function describeTimeToLive(model: DynamoModel, input: Input): Input {
  const t = model.table(input.TableName);
  return {
    TimeToLiveDescription: t.ttlAttribute
      ? { TimeToLiveStatus: "ENABLED", AttributeName: t.ttlAttribute }
      : { TimeToLiveStatus: "DISABLED" },
  };
}
