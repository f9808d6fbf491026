import { type LocatorState, TOMBSTONE } from "../locator/locator";
import { unsafeConditionOnItem } from "../locator/locator-test-switches";
import { isNewer } from "../version/newer-version";

/**
 * An app installation's record (Parts 4 and 5): the high-water mark of its registration counter and the one
 * device it holds now. It is a locator that never expires: deleting its device turns it into a tombstone, so a
 * resent registration loses to both a newer one (branch V) and the delete (branch M).
 */
export interface Installation {
  caller: string;
  installation_id: string;
  /** The highest counter the installation registered with. */
  hwm: number;
  device_id: string;
  state: LocatorState;
  /** The device the installation held before this counter's, which the registration retires. */
  previous_device_id?: string;
}

/** Whether a registration may go on: accepted (with the device it replaces), or stale with what the record holds. */
export type Acceptance =
  | { accepted: true; previous?: string }
  | { accepted: false; current: Installation | undefined };

/** Installations' records. */
export interface InstallationStore {
  read(caller: string, installationId: string): Promise<Installation | undefined>;
  /**
   * Accepts the registration `counter` of device `deviceId`: above the high-water mark, or the same registration
   * again while its device is live (a retry finishes what the first attempt started).
   */
  accept(caller: string, installationId: string, counter: number, deviceId: string): Promise<Acceptance>;
  /** Turns the record into a tombstone if it still names `deviceId`; a record that moved on is left alone. */
  bury(caller: string, installationId: string, deviceId: string): Promise<void>;
}

/** The record's key. The installation id has no `#`, so it goes first and the caller id may hold anything. */
export const installationKey = (caller: string, installationId: string) => ({
  pk: `INSTALL#${installationId}#${caller}`,
  sk: "INSTALL",
});

/**
 * Whether a registration is older than the installation's record: its counter is not above the mark, and it is
 * not the same registration of a live device again (a retry). The same registration of a deleted device is stale:
 * the tombstone spent its counter (the unsafe switch of branch M looks past it).
 */
export function isStale(current: Installation | undefined, counter: number, deviceId: string): boolean {
  if (!current) return false;
  if (current.hwm === counter && current.device_id === deviceId)
    return current.state === TOMBSTONE && !unsafeConditionOnItem();
  return !isNewer(counter, current.hwm);
}
