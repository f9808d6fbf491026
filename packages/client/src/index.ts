export type { ClientEvent, Operation } from "./client-events";
export {
  DEFAULT_BACKOFF,
  DEFAULT_HORIZON_MS,
  DEFAULT_TIMEOUT_MS,
  type PaymentsClientOptions,
} from "./client-options";
export { createPaymentsClient, type PaymentsClient } from "./create-payments-client";
export type { JournalEntry, JournalState, KeyJournal } from "./journal/key-journal";
export { memoryJournal } from "./journal/memory-journal";
export type * from "./results";
export { jitteredBackoffMs, retryAfterMs } from "./retry/backoff";
