import { unsafeNoVersionCheck } from "./version-test-switches";

/** The attribute that holds the high-water mark: the highest version the item has accepted from its counter. */
export const HIGH_WATER_MARK = "hwm";

/** A DynamoDB condition in parts, so that a caller can join it with conditions of its own. */
export interface ConditionParts {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * The condition under which a write carrying `version` may land (Part 5, branch V): the item has accepted no
 * version yet, or only lower ones. Versions come from one counter kept by the writer (a device's journal), never
 * from a clock: a resent old write then loses to a newer one whatever order they arrive in.
 */
export function newerThanStored(version: number): ConditionParts {
  checkVersion(version);
  if (unsafeNoVersionCheck())
    return {
      expression: "attribute_not_exists(#hwm) OR attribute_exists(#hwm)",
      names: { "#hwm": HIGH_WATER_MARK },
      values: {},
    };
  return {
    expression: "attribute_not_exists(#hwm) OR #hwm < :version",
    names: { "#hwm": HIGH_WATER_MARK },
    values: { ":version": version },
  };
}

/** The same rule for the read path: whether `version` is above the stored high-water mark (none: anything is). */
export function isNewer(version: number, stored: number | undefined): boolean {
  return unsafeNoVersionCheck() || stored === undefined || version > stored;
}

/** Refuses a version that is no counter value: versions are whole numbers from 0 up. */
export function checkVersion(version: number): void {
  if (!Number.isSafeInteger(version) || version < 0)
    throw new RangeError(`a version is a whole number from 0 up, not ${version}`);
}
