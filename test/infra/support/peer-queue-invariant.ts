/**
 * The hand-over between Regions: a Region that the authority does not name as active sends each event its worker
 * receives, and each event its events DLQ holds (the sweeps), to the other Region's events queue instead of applying
 * it. So every function of a Region is told the other Region's events queue (PEER_EVENTS_QUEUE_URL, never its own),
 * the worker and the sweeps may SendMessage there and nothing more, and no other function may send there. Held to
 * the issue, not to the stacks.
 */
import { handlers } from "../../../stacks/handlers";
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";
import { str } from "./json";

const ROLES = ["primary", "standby"] as const;
type Role = (typeof ROLES)[number];

const otherThan = (role: Role): Role => (role === "primary" ? "standby" : "primary");

/** Who hands events over (by handler id): the worker, and the sweeps for what the events DLQ holds. */
const HANDERS_OVER: Record<string, string> = { NotifyWorker: "the worker", Sweeps: "the sweeps" };

/** What a hander-over must not do on the peer queue: it hands events over, the peer's own worker consumes them. */
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
  const ownArn = str(v.queueByUrl(v.regionEnv(role, "EVENTS_QUEUE_URL"))?.state.arn);
  for (const h of handlers) {
    const f = v.fn(role, h.id);
    if (!f) continue;
    const may = v.can(f, "sqs:SendMessage", peerArn);
    const who = HANDERS_OVER[h.id];
    if (!who) {
      if (may) out.push(`${role}: ${h.id} may sqs:SendMessage on the ${other} events queue ${peerArn}`);
      continue;
    }
    if (!may) out.push(`${role}: ${who} may not sqs:SendMessage on the ${other} events queue ${peerArn}`);
    for (const action of NOT_ON_PEER) {
      if (v.can(f, action, peerArn)) out.push(`${role}: ${who} may ${action} on the ${other} events queue`);
    }
    // Exactly the peer's events queue: not its own queue (a loop), not a DLQ, not the relay's failure queue. The
    // sweeps also re-send outbox rows to their own Region's events queue (that is not a hand-over).
    for (const q of v.ofType("aws:sqs/queue:Queue")) {
      const arn = str(q.state.arn);
      if (q === peer || !arn || (h.id === "Sweeps" && arn === ownArn)) continue;
      if (v.can(f, "sqs:SendMessage", arn))
        out.push(`${role}: ${who} may sqs:SendMessage on ${arn}, not only the ${other} events queue`);
    }
  }
  return out;
}

/**
 * Each Region's functions name the other Region's events queue; only the worker and the sweeps may send to it, and
 * only send.
 */
export const peerQueue: Invariant = {
  name: "each Region names the other's events queue, and only its worker and sweeps may send there",
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

/** What draining the events DLQ takes: receive, keep a message invisible while it is handed over, delete it. */
const DRAIN = [
  "sqs:ReceiveMessage",
  "sqs:DeleteMessage",
  "sqs:ChangeMessageVisibility",
  "sqs:GetQueueAttributes",
];
/** What nobody may do on an events DLQ but its own Region's sweeps (GetQueueAttributes is harmless, so not here). */
const TAKE_FROM_DLQ = ["sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:ChangeMessageVisibility"];

/** A Region's events DLQ: the dead-letter target of the events queue its functions name. */
export function eventsDlqOf(v: View, role: Role): CapturedResource | undefined {
  const q = v.queueByUrl(v.regionEnv(role, "EVENTS_QUEUE_URL"));
  const redrive = q?.inputs.redrivePolicy
    ? (JSON.parse(String(q.inputs.redrivePolicy)) as { deadLetterTargetArn?: string })
    : {};
  return v.byArn(redrive.deadLetterTargetArn);
}

/**
 * A passive Region's sweeps hand over what its events DLQ holds: every function of a Region is told its own Region's
 * events DLQ (EVENTS_DLQ_URL, the events queue's dead-letter target), its sweeps may receive, delete, extend and read
 * the attributes there, and no other function of either Region (nor the other Region's sweeps) may take from it.
 */
export const eventsDlqDrain: Invariant = {
  name: "each Region names its own events DLQ, and only its sweeps may take from it",
  check(v) {
    const out: string[] = [];
    const dlqs = new Map<Role, CapturedResource>();
    for (const role of ROLES) {
      const dlq = eventsDlqOf(v, role);
      if (!dlq || v.regionOf(dlq) !== v.region(role)) {
        out.push(`${role}: no events DLQ in ${v.region(role)}`);
        continue;
      }
      dlqs.set(role, dlq);
      const peerDlqUrl = str(eventsDlqOf(v, otherThan(role))?.state.url);
      for (const f of v.functionsIn(role)) {
        const url = v.env(f).EVENTS_DLQ_URL;
        if (url === dlq.state.url) continue;
        const named =
          url === undefined
            ? "(unset)"
            : url === peerDlqUrl
              ? `${url} (the ${otherThan(role)} Region's DLQ)`
              : url;
        out.push(`${role}: ${f.name} has EVENTS_DLQ_URL=${named}, expected its events DLQ ${dlq.state.url}`);
      }
    }
    for (const [dlqRole, dlq] of dlqs) {
      const arn = str(dlq.state.arn) ?? "(none)";
      for (const role of ROLES) {
        for (const h of handlers) {
          const f = v.fn(role, h.id);
          if (!f) continue;
          const drains = h.id === "Sweeps" && role === dlqRole;
          const where = role === dlqRole ? "its events DLQ" : `the ${dlqRole} events DLQ`;
          if (drains) {
            for (const action of DRAIN) {
              if (!v.can(f, action, arn))
                out.push(`${role}: the sweeps may not ${action} on ${where} ${arn}`);
            }
            continue;
          }
          for (const action of TAKE_FROM_DLQ) {
            if (v.can(f, action, arn)) out.push(`${role}: ${h.id} may ${action} on ${where} ${arn}`);
          }
        }
      }
    }
    return out;
  },
};
