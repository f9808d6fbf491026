import { z } from "zod";

/** Where problem types live: `type` is this base and the kind. */
export const PROBLEM_BASE = "https://effectively-once.dev/problems/";

/** Every kind of refusal the API gives, with its status and title: the one table errors map to HTTP by. */
export const PROBLEM_KINDS = {
  "bad-request": {
    status: 400,
    title: "Bad Request",
    means: "Missing or invalid key, path or body; nothing was written.",
  },
  unauthorized: { status: 401, title: "Unauthorized", means: "The token carries no caller (`sub`)." },
  "not-found": {
    status: 404,
    title: "Not Found",
    means: "No such resource for this caller (never 403: no probing).",
  },
  "in-progress": {
    status: 409,
    title: "Request In Progress",
    means: "Another request with this key is still running; retry with the same key after Retry-After.",
  },
  "key-voided": {
    status: 409,
    title: "Key Voided",
    means:
      "The key was voided by resolve and can never charge; a void written under an earlier Region epoch was first checked at the PSP by our reference (a charge there answers as the payment, not 409). Make a new key for a new attempt.",
  },
  "invalid-state": {
    status: 409,
    title: "Invalid State",
    means: "The payment is not in a state that allows this.",
  },
  "refund-refused": {
    status: 409,
    title: "Refund Refused",
    means: "The PSP definitely refused the refund (its reason in `detail`); the payment stays SUCCEEDED.",
  },
  "stale-registration": {
    status: 409,
    title: "Stale Registration",
    means:
      "The installation already made a registration with this counter or a higher one (or deleted the device this counter registered); nothing was written. A resent old registration: drop it, never retry it.",
  },
  "too-large": { status: 413, title: "Payload Too Large", means: "The body is over 16 KiB." },
  "fingerprint-mismatch": {
    status: 422,
    title: "Key Reused With A Different Request",
    means: "The key was used for a different request; nothing ran. A client bug: never retry it.",
  },
  "amount-below-minimum": {
    status: 422,
    title: "Amount Below The PSP's Minimum",
    means:
      "On a stage whose PSP has a minimum charge per currency (Stripe), the amount is under it (`detail` says the currency's minimum); nothing was charged or written. Never retry it as is.",
  },
  "deadline-passed": {
    status: 503,
    title: "Deadline Passed",
    means: "The request was older than the server's deadline on arrival; nothing ran.",
  },
  "psp-unavailable": {
    status: 503,
    title: "Payment Processor Unavailable",
    means:
      "The PSP could not be asked within the request's deadline (our share of its rate limit is spent); nothing was charged or written to the ledger. Its place in the queue is kept: retry with the same key after Retry-After, which is the time of its slot.",
  },
  "event-ahead": {
    status: 503,
    title: "Event Ahead Of Its Payment",
    means:
      "A PSP event about one of our payments that this Region cannot apply yet: its row is still replicating from the other Region, or its charge is still settling here. Nothing was written; the PSP delivers it again.",
  },
  "region-passive": {
    status: 503,
    title: "Region Is Standby",
    means: "This Region is the passive standby; send requests to the active Region.",
  },
} as const satisfies Record<string, { status: number; title: string; means: string }>;

/** The kinds of refusal, as the domain names them. */
export type ProblemKind = keyof typeof PROBLEM_KINDS;

/** The problem `type` URI of a kind. */
export function problemType(kind: ProblemKind): string {
  return `${PROBLEM_BASE}${kind}`;
}

/** An RFC 9457 problem: what every refusal and failure answers, as `application/problem+json`. */
export const Problem = z
  .object({
    type: z.string().meta({ example: `${PROBLEM_BASE}bad-request` }),
    title: z.string(),
    status: z.number().int(),
    detail: z
      .string()
      .meta({ description: "What was wrong and how to fix it: the field, the rule, an example." }),
    instance: z.string().optional(),
  })
  .meta({ id: "Problem" });
export type Problem = z.infer<typeof Problem>;

/** API Gateway's own 401 for a missing, expired or badly signed token (it never reaches a handler). */
export const GatewayMessage = z.object({ message: z.string() }).meta({ id: "GatewayMessage" });
