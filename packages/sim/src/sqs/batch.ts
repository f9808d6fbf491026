import {
  batchEntryIdsNotDistinct,
  batchRequestTooLong,
  emptyBatchRequest,
  invalidBatchEntryId,
  SqsError,
  tooManyEntriesInBatchRequest,
} from "./errors";

/** A batch entry's failure, as SQS reports it per entry. */
export interface BatchFailure {
  Id: string;
  SenderFault: boolean;
  Code: string;
  Message: string;
}

/** A batch's answer: what succeeded and what failed, entry by entry. */
export interface BatchResult<T> {
  Successful: T[];
  Failed: BatchFailure[];
}

/** The largest a SendMessageBatch may be in total (body and attributes of every entry). */
export const MAX_BATCH_BYTES = 1_048_576;

/** Refuses a batch as a whole as SQS does: empty, more than 10 entries, repeated or malformed ids. */
export function checkBatch(entries: Array<{ Id?: string }> | undefined): Array<{ Id: string }> {
  const list = entries ?? [];
  if (list.length === 0) throw emptyBatchRequest();
  if (list.length > 10) throw tooManyEntriesInBatchRequest(list.length);
  const seen = new Set<string>();
  for (const e of list) {
    if (!e.Id || !/^[A-Za-z0-9_-]{1,80}$/.test(e.Id)) throw invalidBatchEntryId();
    if (seen.has(e.Id)) throw batchEntryIdsNotDistinct(e.Id);
    seen.add(e.Id);
  }
  return list as Array<{ Id: string }>;
}

/** Refuses a send batch larger in total than SQS takes. */
export function checkBatchSize(bytes: number): void {
  if (bytes > MAX_BATCH_BYTES) throw batchRequestTooLong(MAX_BATCH_BYTES);
}

/**
 * Runs each entry on its own: a service error becomes that entry's failure (the others still happen), anything
 * else (a model defect) fails the whole call.
 */
export function eachEntry<E extends { Id: string }, T>(
  entries: E[],
  run: (e: E) => T,
): BatchResult<T & { Id: string }> {
  const out: BatchResult<T & { Id: string }> = { Successful: [], Failed: [] };
  for (const e of entries) {
    try {
      out.Successful.push({ Id: e.Id, ...run(e) });
    } catch (err) {
      if (!(err instanceof SqsError) || err.shape === "ModelUnsupportedException") throw err;
      out.Failed.push({ Id: e.Id, SenderFault: err.status < 500, Code: err.queryCode, Message: err.message });
    }
  }
  return out;
}
