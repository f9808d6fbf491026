import { SQSClient } from "@aws-sdk/client-sqs";
import type { RegionRole } from "../config/switches";
import { type EventPublisher, queueDedupIdOf, SqsEventPublisher } from "../outbox/event-publisher";
import type { PaymentEvent } from "../outbox/payment-event";
import { Refusal } from "../payment/payment-errors";
import type { ActiveRegion } from "./active-region";

/** Whether this Region's worker applies the event itself, or handed it over to the active Region. */
export type Delivery = "apply-here" | "handed-over";

let peer: EventPublisher | undefined;

/**
 * The dedup id of a handed-over event: stable (a repeated hand-over is one message), but not the event id, which the
 * other Region's queue may have seen from its own sweep within the last 5 minutes. SQS would drop the hand-over as a
 * duplicate although that earlier copy was consumed before it could finish the event's intents, and the passive
 * Region deletes its copy once the send is accepted: the receipt would be lost (found by the fault checker).
 */
export const handOverDedupId = (event: PaymentEvent): string => `${queueDedupIdOf(event)}:handover`;

/**
 * EO_TEST_UNSAFE_WORKER_IGNORES_AUTHORITY=1 lets a passive Region's worker apply what reaches its queue, crediting
 * and notifying on its own replica beside the active Region's inbox.
 */
export const unsafeWorkerIgnoresAuthority = (): boolean =>
  process.env.EO_TEST_UNSAFE_WORKER_IGNORES_AUTHORITY === "1";

/**
 * The other Region's events queue (PEER_EVENTS_QUEUE_URL), reached with a client in that queue's own Region; locally
 * both Regions' queues are on one endpoint. Undefined when the deployment names no peer queue.
 */
export function peerEventsPublisher(
  url: string | undefined = process.env.PEER_EVENTS_QUEUE_URL,
): EventPublisher | undefined {
  if (!url) return undefined;
  const region = /sqs\.([a-z0-9-]+)\.amazonaws\.com/.exec(url)?.[1];
  peer ??= new SqsEventPublisher(
    new SQSClient({ maxAttempts: 3, useQueueUrlAsEndpoint: false, ...(region ? { region } : {}) }),
    url,
  );
  return peer;
}

/**
 * Decides who applies an event that reached this Region's worker. The Region the authority names (or the one a
 * planned failover drains) applies it; a Region that the authority names passive sends it on to the active Region's
 * queue with the same event id and group, so that nothing is stranded in a passive queue and the credit happens
 * beside the one active inbox, never in two Regions' replicas at once (Part 9, branch F2). A Region that cannot
 * read the authority cannot know where to send it: it refuses, and the message is delivered again later.
 */
export async function handOverWhenPassive(
  gate: ActiveRegion,
  own: RegionRole,
  event: PaymentEvent,
  peerQueue: EventPublisher | undefined,
): Promise<Delivery> {
  if (unsafeWorkerIgnoresAuthority() || (await gate.mayDeliver())) return "apply-here";
  const control = await gate.control();
  if (control && control.active !== own && peerQueue) {
    await peerQueue.publish(event, { dedupId: handOverDedupId(event) });
    return "handed-over";
  }
  throw new Refusal(
    "region-passive",
    `this Region (${own}) is passive and ${peerQueue ? "no other Region is named yet" : "knows no peer queue"}: the event waits for redelivery`,
    1,
  );
}
