import type { InfraConfig, RegionRole } from "./config";
import type { RegionProviders } from "./region-base";

/** A table as one Region sees it: the (shared) table name and that Region's table and stream ARNs. */
export interface TableRef {
  name: $util.Output<string>;
  arn: $util.Output<string>;
  streamArn?: $util.Output<string>;
}

/** The tables of one Region. */
export interface RegionTables {
  claims: TableRef;
  ledger: TableRef;
  consumer: TableRef;
  /** The stream job's sink (Part 8): this Region's own table, not global. */
  totals: TableRef;
}

/** The DynamoDB components and each Region's view of them. */
export interface Tables {
  components: {
    claims: sst.aws.Dynamo[];
    ledger: sst.aws.Dynamo;
    consumer: sst.aws.Dynamo;
    totals: Record<RegionRole, sst.aws.Dynamo>;
  };
  byRole: Record<RegionRole, RegionTables>;
}

/** Creates the claim, ledger and consumer tables; the global ones live in the primary Region with a standby replica. */
export function createTables(config: InfraConfig, providers: RegionProviders): Tables {
  const { production, regions } = config;
  const primaryOpts = { provider: providers.primary };
  const replicaIn = (regionName: string) => ({
    regionName,
    pointInTimeRecovery: true,
    propagateTags: true,
    deletionProtectionEnabled: production,
  });

  // The ledger: payments, journal and outbox rows; its stream feeds the relay in each Region (MREC global table).
  const ledger = new sst.aws.Dynamo(
    "Ledger",
    {
      fields: { pk: "string", sk: "string", gsi1pk: "string", gsi1sk: "string" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      globalIndexes: { gsi1: { hashKey: "gsi1pk", rangeKey: "gsi1sk" } },
      stream: "new-and-old-images",
      deletionProtection: production,
      transform: { table: { replicas: [replicaIn(regions.standby)] } },
    },
    primaryOpts,
  );

  // The worker's store: inbox, credits, balances, notification intents, devices, send records (MREC global table;
  // a global table with two replicas needs a NEW_AND_OLD_IMAGES stream).
  const consumer = new sst.aws.Dynamo(
    "Consumer",
    {
      fields: { pk: "string", sk: "string" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      stream: "new-and-old-images",
      ttl: "expires_at",
      deletionProtection: production,
      transform: { table: { replicas: [replicaIn(regions.standby)] } },
    },
    primaryOpts,
  );

  const claimFields = { fields: { id: "string" as const }, primaryIndex: { hashKey: "id" } };
  let claims: sst.aws.Dynamo[];
  let claimRefs: Record<RegionRole, TableRef>;
  if (config.claimMode === "mrsc") {
    // One multi-Region strongly consistent table: primary + standby replica + witness. MRSC has no TTL, and the
    // table must be empty when MRSC is turned on, so the mode is chosen when the table is created.
    const global = new sst.aws.Dynamo(
      "GlobalClaims",
      {
        ...claimFields,
        deletionProtection: production,
        transform: {
          table: {
            replicas: [{ ...replicaIn(regions.standby), consistencyMode: "STRONG" }],
            globalTableWitness: { regionName: regions.witness },
          },
        },
      },
      primaryOpts,
    );
    claims = [global];
    claimRefs = { primary: localRef(global), standby: replicaRef("GlobalClaims", global, regions.standby) };
  } else {
    // Home-Region mode: one table per Region, expired claims removed by TTL.
    const make = (role: RegionRole) =>
      new sst.aws.Dynamo(
        `${role === "primary" ? "Primary" : "Standby"}Claims`,
        { ...claimFields, ttl: "expiration", deletionProtection: production },
        { provider: providers[role] },
      );
    const primary = make("primary");
    const standby = make("standby");
    claims = [primary, standby];
    claimRefs = { primary: localRef(primary), standby: localRef(standby) };
  }

  const totals = {
    primary: totalsTable(config, providers, "primary"),
    standby: totalsTable(config, providers, "standby"),
  };
  return {
    components: { claims, ledger, consumer, totals },
    byRole: {
      primary: {
        claims: claimRefs.primary,
        ledger: localRef(ledger),
        consumer: localRef(consumer),
        totals: localRef(totals.primary),
      },
      standby: {
        claims: claimRefs.standby,
        ledger: replicaRef("Ledger", ledger, regions.standby),
        consumer: replicaRef("Consumer", consumer, regions.standby),
        totals: localRef(totals.standby),
      },
    },
  };
}

/**
 * One Region's sink of the stream job (Part 8): absolute totals per (merchant, day, window, shard) and the sparse
 * index `tags` on the barrier tag, which only open windows' keys carry. Not a global table: each Region's job reads
 * its own replica's stream and writes its own totals, so a replicated sink would hold each total twice.
 */
function totalsTable(config: InfraConfig, providers: RegionProviders, role: RegionRole): sst.aws.Dynamo {
  return new sst.aws.Dynamo(
    role === "primary" ? "PrimaryTotals" : "StandbyTotals",
    {
      fields: { pk: "string", sk: "string", bpk: "string", btag: "number" },
      primaryIndex: { hashKey: "pk", rangeKey: "sk" },
      globalIndexes: { tags: { hashKey: "bpk", rangeKey: "btag" } },
      deletionProtection: config.production,
    },
    { provider: providers[role] },
  );
}

function localRef(table: sst.aws.Dynamo): TableRef {
  return { name: table.name, arn: table.arn, streamArn: table.nodes.table.streamArn };
}

function replicaRef(label: string, table: sst.aws.Dynamo, regionName: string): TableRef {
  const replica = table.nodes.table.replicas.apply((replicas) => {
    const found = (replicas ?? []).find((r) => r.regionName === regionName);
    if (!found) throw new Error(`Table ${label} has no replica in ${regionName}`);
    return found;
  });
  return { name: table.name, arn: replica.arn, streamArn: replica.streamArn };
}
