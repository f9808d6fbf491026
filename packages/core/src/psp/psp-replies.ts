import type { PspReply } from "./psp-port";

type ErrorBody = {
  id?: string;
  error?: { type?: string; decline_code?: string; code?: string; charge?: string; message?: string };
};

/**
 * Reads a Retry-After header (seconds or an HTTP date) as milliseconds from now; 1 s when absent or odd,
 * Stripe's own pace for a 429.
 */
export function retryAfterMsOf(header: string | null, now = Date.now()): number {
  if (header === null || header.trim() === "") return 1_000;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1_000;
  const at = Date.parse(header);
  return Number.isNaN(at) ? 1_000 : Math.max(0, at - now);
}

/** Reads the PSP's answer to a charge: done, a decline, not run (429), a saved error to look up, or unknown. */
export function classifyCharge(
  status: number,
  body: unknown,
  replayed: boolean,
  retryAfterMs = 1_000,
): PspReply {
  const b = body as ErrorBody;
  // A 429 is answered before the request runs and is never saved under the key: nothing was charged.
  if (status === 429) return { kind: "rate-limited", retryAfterMs, by: "psp" };
  if (status >= 200 && status < 300 && b.id) return { kind: "done", id: b.id };
  if (status === 402) {
    return {
      kind: "declined",
      declineCode: b.error?.decline_code ?? b.error?.code ?? "declined",
      id: b.error?.charge,
    };
  }
  if (status >= 500 && replayed) return { kind: "saved-error", status };
  if (status === 404 || status === 400) return { kind: "saved-error", status };
  return { kind: "unknown", reason: `PSP answered ${status}` };
}

/**
 * Reads the PSP's answer to a refund. A 4xx with a reason is a definite refusal of this attempt (nothing
 * was refunded), except `charge_already_refunded`, which says the money has already gone back. A 429 did not
 * run; a fresh 5xx is unknown; a replayed 5xx is a saved error, to be looked up by the charge.
 */
export function classifyRefund(
  status: number,
  body: unknown,
  replayed: boolean,
  retryAfterMs = 1_000,
): PspReply {
  const b = body as ErrorBody;
  if (status === 429) return { kind: "rate-limited", retryAfterMs, by: "psp" };
  if (status >= 200 && status < 300 && b.id) return { kind: "done", id: b.id };
  if (b.error?.code === "charge_already_refunded") return { kind: "already-refunded" };
  if (status >= 500 && replayed) return { kind: "saved-error", status };
  if (status >= 400 && status < 500 && status !== 429 && status !== 408) {
    const code = b.error?.code ?? b.error?.type ?? `http_${status}`;
    return { kind: "refused", code, reason: b.error?.message ?? `the PSP refused the refund (${code})` };
  }
  return { kind: "unknown", reason: `PSP answered ${status}` };
}
