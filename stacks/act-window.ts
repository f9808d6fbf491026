import { type HandlerSpec, handlers } from "./handlers";

/**
 * Whether a handler acts on its read of the authority: it moves a payment or a claim, relays an event, or sends a
 * notification. A read-only job (Reconcile) or a per-Region tally (the stream job) cannot act for a fenced Region.
 */
export function actsOnTheAuthority(spec: Pick<HandlerSpec, "access">): boolean {
  const a = spec.access;
  return (
    a.claims === "write" ||
    a.ledger === "write" ||
    a.sendEvents === true ||
    a.peerEventsQueue === "send" ||
    a.push === "send" ||
    a.email === true
  );
}

/**
 * The longest Lambda timeout of every handler that acts on the authority, in seconds: the part of the act window a
 * failover must wait out, so that no invocation of the fenced Region still acts on a read from before the fence.
 * Computed from the deployed list so that a longer timeout there lengthens the failover's wait with it.
 */
export function longestActingTimeoutS(list: readonly HandlerSpec[] = handlers): number {
  const acting = list.filter(actsOnTheAuthority);
  if (acting.length === 0) throw new Error("no handler acts on the authority: the handler list is wrong");
  return Math.max(...acting.map((h) => h.timeoutSeconds));
}
