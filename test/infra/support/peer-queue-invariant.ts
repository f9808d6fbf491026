/**
 * The hand-over between Regions: a Region that the authority does not name as active sends each event its worker
 * receives to the other Region's events queue instead of applying it. So every function of a Region is told the
 * other Region's events queue (PEER_EVENTS_QUEUE_URL, never its own), the worker may SendMessage there and nothing
 * more, and no other function may send there. Held to the issue, not to the stacks.
 */
import { handlers } from "../../../stacks/handlers";
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { str } from "./json";

const ROLES = ["primary", "standby"] as const;
type Role = (typeof ROLES)[number];

const otherThan = (role: Role): Role => (role === "primary" ? "standby" : "primary");

/** What the worker must not do on the peer queue: it hands events over, the peer's own worker consumes them. */
const NOT_ON_PEER = [
  "sqs:ReceiveMessage",
  "sqs:DeleteMessage",
  "sqs:ChangeMessageVisibility",
  "sqs:PurgeQueue",
  "sqs:SetQueueAttributes",
  "sqs:DeleteQueue",
];

/** The other Region's events queue, found by the URL its own functions read, so that a wrong peer URL cannot hide it. */
export function peerEventsQueue(v: View, role: Role): CapturedResource | undefined {
  return v.queueByUrl(v.regionEnv(otherThan(role), "EVENTS_QUEUE_URL"));
}

function environmentProblems(v: View, role: Role, peer: CapturedResource): string[] {
  const out: string[] = [];
  const ownUrl = str(v.queueByUrl(v.regionEnv(role, "EVENTS_QUEUE_URL"))?.state.url);
  for (const f of v.functionsIn(role)) {
    const url = v.env(f).PEER_EVENTS_QUEUE_URL;
    if (url === peer.state.url) continue;
    const named = url === undefined ? "(unset)" : url === ownUrl ? `${url} (its own Region's queue)` : url;
    out.push(
      `${role}: ${f.name} has PEER_EVENTS_QUEUE_URL=${named}, expected the ${otherThan(role)} events queue ${peer.state.url}`,
    );
  }
  return out;
}

function grantProblems(v: View, role: Role, peer: CapturedResource): string[] {
  const out: string[] = [];
  const other = otherThan(role);
  const peerArn = str(peer.state.arn) ?? "(none)";
  for (const h of handlers) {
    const f = v.fn(role, h.id);
    if (!f) continue;
    const may = v.can(f, "sqs:SendMessage", peerArn);
    if (h.trigger.kind !== "events-queue") {
      if (may) out.push(`${role}: ${h.id} may sqs:SendMessage on the ${other} events queue ${peerArn}`);
      continue;
    }
    if (!may) out.push(`${role}: the worker may not sqs:SendMessage on the ${other} events queue ${peerArn}`);
    for (const action of NOT_ON_PEER) {
      if (v.can(f, action, peerArn))
        out.push(`${role}: the worker may ${action} on the ${other} events queue`);
    }
    // Exactly the peer's events queue: not its own queue (a loop), not a DLQ, not the relay's failure queue.
    for (const q of v.ofType("aws:sqs/queue:Queue")) {
      const arn = str(q.state.arn);
      if (q !== peer && arn && v.can(f, "sqs:SendMessage", arn))
        out.push(`${role}: the worker may sqs:SendMessage on ${arn}, not only the ${other} events queue`);
    }
  }
  return out;
}

/** Each Region's functions name the other Region's events queue; only the worker may send to it, and only send. */
export const peerQueue: Invariant = {
  name: "each Region names the other's events queue, and only its worker may send there",
  check(v) {
    const out: string[] = [];
    for (const role of ROLES) {
      const peer = peerEventsQueue(v, role);
      if (!peer || v.regionOf(peer) !== v.region(otherThan(role))) {
        out.push(`${role}: no events queue of the ${otherThan(role)} Region in ${v.region(otherThan(role))}`);
        continue;
      }
      out.push(...environmentProblems(v, role, peer), ...grantProblems(v, role, peer));
    }
    return out;
  },
};
