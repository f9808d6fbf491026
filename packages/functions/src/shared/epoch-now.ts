import { type EpochContext, type EpochNow, regionGate } from "@eo/core";

// Not the jobs' cached view: a view from before a failover would make a void of an earlier epoch look like this
// one's, and let VOID or 409 key-voided stand for a key charged elsewhere; and its `active_from` says since when a
// lookup that may lag has had time to find what the old Region charged (issue 40). Within a request this is the
// request's one read of the authority (request-view.ts): at most the fence cache old when the request began, which
// names the current epoch in a Region that may act, since no failover completes within one act window.
/** The Region control's epoch and start, from the request's one read of the authority, asked only on a void. */
export function epochContext(): EpochContext {
  // No memo of its own: the request view already makes every ask of one request the same read.
  const controlNow = () =>
    regionGate()
      .controlNow()
      .then((c): EpochNow | undefined => c && { epoch: c.epoch, active_from: c.active_from });
  return { controlNow };
}
