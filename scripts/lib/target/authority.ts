import { DynamoRegionControlStore, type RegionControl, type RegionRole } from "@eo/core";
import type { AuthoritySide } from "@eo/core/failover";
import { dynamoIn } from "./clients";
import { type Target, TargetError } from "./target";

export type { AuthoritySide } from "@eo/core/failover";

/**
 * The authority through whichever of its Regions answers first: in MRSC mode each replica's strongly consistent
 * read and conditional write see the latest value, so any one of them will do while it reaches its quorum.
 */
export function targetAuthority(t: Target): AuthoritySide {
  const a = t.authority;
  const stores = a.regions.map((region) => new DynamoRegionControlStore(dynamoIn(t, region), a.table));
  const first = async <T>(call: (s: DynamoRegionControlStore) => Promise<T>): Promise<T> => {
    const errors: string[] = [];
    for (const [i, s] of stores.entries()) {
      try {
        return await call(s);
      } catch (err) {
        errors.push(`${a.regions[i]}: ${(err as Error).message}`);
      }
    }
    throw new Error(`no Region of the authority answered (${errors.join("; ")})`);
  };
  const kind = t.kind === "local" ? "the local authority," : a.mode === "mrsc" ? "MRSC" : "single-Region";
  return {
    where: `${kind} table ${a.table} (${a.regions.join(", ")}${a.witness ? `; witness ${a.witness}` : ""})`,
    read: () => first((s) => s.read()),
    write: (next) => first((s) => s.write(next)),
    clock: () => first((s) => s.clock()),
  };
}

/**
 * The Region a one-Region script acts on: the one `--region` names, or else the one the authority names active now
 * (the only Region whose jobs act, and whose ledger replica holds every write first). Refused when neither is known.
 */
export async function regionToActOn(
  t: Target,
  flag: RegionRole | undefined,
): Promise<{ role: RegionRole; why: string }> {
  if (flag) return { role: flag, why: "--region" };
  let control: RegionControl | undefined;
  try {
    control = await targetAuthority(t).read();
  } catch (err) {
    throw new TargetError(
      `refused: the authority cannot be read to find the active Region (${(err as Error).message}); name one with --region primary|standby`,
    );
  }
  if (!control)
    throw new TargetError("refused: the authority holds no control record; name a Region with --region");
  return { role: control.active, why: `active per the authority, epoch ${control.epoch}` };
}
