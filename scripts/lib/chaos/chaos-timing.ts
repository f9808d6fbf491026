/** The timing the chaos stack runs with (scripts/lib/chaos/chaos-stack.ts sets it); faults are sized by it. */
// The deadline leaves the PSP call its minimum second (MIN_PSP_CALL_MS) after the clock margin.
export const CHAOS_TIMING = {
  deadlineMs: 1_500,
  clockMarginMs: 100,
  takeoverMarginMs: 400,
  webhookDelayMs: 300,
  // The shipped wait before a saved PSP 5xx with no charge found becomes a decline (hours): the quiesce moves the
  // clock past it, so that a schedule's injected 5xx settles the way it would after that wait in production.
  saved5xxSettleS: 4 * 3_600,
  // How long the PSP's lookup may lag (PSP_NOT_FOUND_SETTLE_S, the shipped default): the real-world nemesis's lagging
  // index lags by as much, the most the design allows.
  notFoundSettleS: 600,
} as const;
