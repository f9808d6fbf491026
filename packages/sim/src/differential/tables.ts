import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";

/**
 * The tables the corpus writes, shaped like the project's own (packages/local/src/stack/create-resources.ts):
 * the ledger (pk/sk with the index `gsi1` on gsi1pk/gsi1sk, sparse: only some items carry them), the stream job's
 * totals (pk/sk with the sparse index `tags` on bpk and the number btag) and the claim table (hash key `id` only).
 * No table of the project has a local secondary index, so none is generated.
 */
export type TableName = "ledger" | "totals" | "claims";

export interface TableShape {
  hash: string;
  range?: string;
  /** Global secondary indexes by name: hash, range and the range's type. */
  indexes: Record<string, { hash: string; range: string; rangeType: "S" | "N" }>;
}

export const TABLES: Record<TableName, TableShape> = {
  ledger: { hash: "pk", range: "sk", indexes: { gsi1: { hash: "gsi1pk", range: "gsi1sk", rangeType: "S" } } },
  totals: { hash: "pk", range: "sk", indexes: { tags: { hash: "bpk", range: "btag", rangeType: "N" } } },
  claims: { hash: "id", indexes: {} },
};

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

/** The physical name of a logical table in one run: runs never share a table, so they stay independent. */
export function physicalName(prefix: string, table: string): string {
  return `${prefix}${table}`;
}

/** The CreateTable request of one logical table under a run's prefix (on-demand, every index projecting ALL). */
export function createTableInput(prefix: string, table: TableName): CreateTableCommandInput {
  const shape = TABLES[table];
  const defs = [{ AttributeName: shape.hash, AttributeType: "S" as const }];
  const keys: { AttributeName: string; KeyType: "HASH" | "RANGE" }[] = [
    { AttributeName: shape.hash, KeyType: "HASH" },
  ];
  if (shape.range) {
    defs.push({ AttributeName: shape.range, AttributeType: "S" });
    keys.push({ AttributeName: shape.range, KeyType: "RANGE" as const });
  }
  const indexes = Object.entries(shape.indexes).map(([name, ix]) => {
    defs.push({ AttributeName: ix.hash, AttributeType: "S" });
    defs.push({ AttributeName: ix.range, AttributeType: ix.rangeType as "S" });
    return {
      IndexName: name,
      KeySchema: [
        { AttributeName: ix.hash, KeyType: "HASH" as const },
        { AttributeName: ix.range, KeyType: "RANGE" as const },
      ],
      Projection: { ProjectionType: "ALL" as const },
    };
  });
  return {
    TableName: physicalName(prefix, table),
    BillingMode: "PAY_PER_REQUEST",
    AttributeDefinitions: defs,
    KeySchema: keys,
    ...(indexes.length > 0 ? { GlobalSecondaryIndexes: indexes } : {}),
  };
}

/** The key attribute names of a table, hash first. */
export function keyNames(table: TableName): string[] {
  const shape = TABLES[table];
  return shape.range ? [shape.hash, shape.range] : [shape.hash];
}
