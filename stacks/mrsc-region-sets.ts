/**
 * The Region sets of DynamoDB multi-Region strong consistency (MRSC): an MRSC global table's replicas and witness
 * must all be in one set, and a table's Regions cannot change once it exists, so a mode that cannot work is refused
 * before anything is created. Plain data: the SST program and vitest both import it.
 */

/** The MRSC Region sets, as AWS documents them. */
export const MRSC_REGION_SETS: Readonly<Record<string, readonly string[]>> = {
  US: ["us-east-1", "us-east-2", "us-west-2"],
  EU: ["eu-west-1", "eu-west-2", "eu-west-3", "eu-central-1"],
  AP: ["ap-northeast-1", "ap-northeast-2", "ap-northeast-3"],
};

/** The name of the one MRSC Region set that holds every given Region, or undefined when there is none. */
export function mrscRegionSet(regions: readonly string[]): string | undefined {
  return Object.entries(MRSC_REGION_SETS).find(([, set]) => regions.every((r) => set.includes(r)))?.[0];
}

/** Throws, naming the sets and the alternative setting, unless the Regions are all in one MRSC Region set. */
export function assertMrscRegionSet(
  what: string,
  regions: { primary: string; standby: string; witness: string },
  alternative: string,
): void {
  const all = [regions.primary, regions.standby, regions.witness];
  if (mrscRegionSet(all)) return;
  const sets = Object.entries(MRSC_REGION_SETS)
    .map(([name, set]) => `${name}: ${set.join(", ")}`)
    .join("; ");
  throw new Error(
    `${what} needs PRIMARY_REGION, STANDBY_REGION and WITNESS_REGION in one MRSC Region set (${sets}); ` +
      `got ${all.join(", ")}. Choose three Regions of one set, or set ${alternative}.`,
  );
}
