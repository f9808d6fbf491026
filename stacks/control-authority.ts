import type { ControlMode, InfraConfig, RegionRole } from "./config";
import type { RegionProviders } from "./region-base";

/** The authority as one Region's functions reach it. */
export interface ControlRef {
  name: $util.Output<string>;
  /** The ARN the Region's functions read: the Region's own replica (mrsc), or the one table (single-region). */
  arn: $util.Output<string>;
  /** The Region the table is reached in when it is not the function's own (single-region); unset in mrsc. */
  region?: string;
}

/** The one store of the active Region and its epoch, and how each Region reaches it. */
export interface ControlAuthority {
  mode: ControlMode;
  table: sst.aws.Dynamo;
  /** The Regions where it can be read and written. */
  regions: string[];
  /** The MRSC witness Region (mrsc only). */
  witness?: string;
  byRole: Record<RegionRole, ControlRef>;
}

/** The key of the authority's one item; the handlers and the failover script read and write it by this key. */
export const CONTROL_KEY = "REGION_CONTROL";

/**
 * Creates the Region authority: one table with a third vote, so that a Region that comes back from a failure reads
 * what the authority says now instead of a copy of its own. `mrsc`: a multi-Region strongly consistent global table
 * (primary, a STRONG replica in the standby, a witness), read strongly consistent in either Region while two of the
 * three answer. `single-region`: an ordinary table in WITNESS_REGION, outside both application Regions, read across
 * Regions; it is only as available as that one Region.
 */
export function createControlAuthority(config: InfraConfig, providers: RegionProviders): ControlAuthority {
  const { regions, production } = config;
  const fields = {
    fields: { pk: "string" as const },
    primaryIndex: { hashKey: "pk" },
    deletionProtection: production,
  };
  if (config.controlMode === "mrsc") {
    // The table must be empty when MRSC is turned on and the mode never changes: hence a table of its own per mode.
    // No TTL and no stream: MRSC has no TTL, and nothing consumes the item's changes.
    const table = new sst.aws.Dynamo(
      "GlobalControl",
      {
        ...fields,
        transform: {
          table: {
            replicas: [
              {
                regionName: regions.standby,
                consistencyMode: "STRONG",
                pointInTimeRecovery: true,
                propagateTags: true,
                deletionProtectionEnabled: production,
              },
            ],
            globalTableWitness: { regionName: regions.witness },
          },
        },
      },
      { provider: providers.primary },
    );
    initialItem(config, "GlobalControl", table, providers.primary);
    return {
      mode: "mrsc",
      table,
      regions: [regions.primary, regions.standby],
      witness: regions.witness,
      byRole: {
        primary: { name: table.name, arn: table.arn },
        standby: { name: table.name, arn: replicaArn(table, regions.standby) },
      },
    };
  }
  // Its own provider: nothing else of the app lives in this Region.
  const witnessProvider = new aws.Provider("WitnessAws", { region: regions.witness });
  const table = new sst.aws.Dynamo("WitnessControl", fields, { provider: witnessProvider });
  initialItem(config, "WitnessControl", table, witnessProvider);
  const ref: ControlRef = { name: table.name, arn: table.arn, region: regions.witness };
  return {
    mode: "single-region",
    table,
    regions: [regions.witness],
    witness: undefined,
    byRole: { primary: ref, standby: ref },
  };
}

/** The stage output that tells operators and scripts where the authority lives. */
export function authorityOutput(authority: ControlAuthority) {
  return {
    table: authority.table.name,
    mode: authority.mode,
    regions: authority.regions,
    witness: authority.witness,
  };
}

/**
 * The first item, written once at creation (ignoreChanges): a redeploy never undoes a failover, which moves the
 * item at run time with a conditional write on the epoch.
 */
function initialItem(config: InfraConfig, name: string, table: sst.aws.Dynamo, provider: aws.Provider): void {
  new aws.dynamodb.TableItem(
    `${name}Initial`,
    {
      tableName: table.name,
      hashKey: "pk",
      item: JSON.stringify({
        pk: { S: CONTROL_KEY },
        active: { S: config.activeRegion },
        epoch: { N: "1" },
        updated_at: { N: "0" },
        reason: { S: "initial deployment" },
      }),
    },
    { provider, ignoreChanges: ["item"] },
  );
}

function replicaArn(table: sst.aws.Dynamo, regionName: string): $util.Output<string> {
  return table.nodes.table.replicas.apply((replicas) => {
    const found = (replicas ?? []).find((r) => r.regionName === regionName);
    if (!found) throw new Error(`the control table has no replica in ${regionName}`);
    return found.arn;
  });
}
