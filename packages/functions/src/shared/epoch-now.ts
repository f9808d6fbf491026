import { type EpochContext, type EpochNow, regionGate } from "@eo/core";

// Read fresh, not from the handlers' cache: a view from before a failover would make a void of an earlier epoch
// look like this one's, and let VOID or 409 key-voided stand for a key charged elsewhere; and its `active_from` says
// since when a lookup that may lag has had time to find what the old Region charged (issue 40).
/** The Region control's epoch and start, read from the authority at most once per request that meets a void. */
export function epochContext(): EpochContext {
  let read: Promise<EpochNow | undefined> | undefined;
  const controlNow = () => {
    read ??= regionGate()
      .controlNow()
      .then((c) => c && { epoch: c.epoch, active_from: c.active_from });
    return read;
  };
  return { controlNow };
}
