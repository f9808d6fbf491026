import { regionGate } from "@eo/core";

// Read fresh, not from the handlers' cache: a view from before a failover would make a void of an earlier epoch
// look like this one's, and let VOID or 409 key-voided stand for a key charged elsewhere.
/** The Region control's epoch now, read from the authority for the operations that meet a void. */
export const epochNow = async (): Promise<number | undefined> => (await regionGate().controlNow())?.epoch;
