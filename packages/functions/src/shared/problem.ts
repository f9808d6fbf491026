import { findRefusal, type RefusalKind } from "@eo/core";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";

const STATUS: Record<RefusalKind, number> = {
  "bad-request": 400,
  unauthorized: 401,
  "not-found": 404,
  "in-progress": 409,
  "key-voided": 409,
  "invalid-state": 409,
  "refund-refused": 409,
  "too-large": 413,
  "fingerprint-mismatch": 422,
  "deadline-passed": 503,
  "psp-unavailable": 503,
  "region-passive": 503,
};

const TITLE: Record<RefusalKind, string> = {
  "bad-request": "Bad Request",
  unauthorized: "Unauthorized",
  "not-found": "Not Found",
  "in-progress": "Request In Progress",
  "key-voided": "Key Voided",
  "invalid-state": "Invalid State",
  "refund-refused": "Refund Refused",
  "too-large": "Payload Too Large",
  "fingerprint-mismatch": "Key Reused With A Different Request",
  "deadline-passed": "Deadline Passed",
  "psp-unavailable": "Payment Processor Unavailable",
  "region-passive": "Region Is Standby",
};

export const PROBLEM_BASE = "https://effectively-once.dev/problems/";

/** The one place where errors become HTTP: a refusal is its problem+json; anything else is a 500. */
export function toProblem(err: unknown, instance?: string): APIGatewayProxyStructuredResultV2 {
  const refusal = findRefusal(err);
  const kind: RefusalKind | undefined = refusal?.kind;
  const status = kind ? STATUS[kind] : 500;
  const body = {
    type: kind ? `${PROBLEM_BASE}${kind}` : "about:blank",
    title: kind ? TITLE[kind] : "Internal Server Error",
    status,
    detail: refusal?.detail ?? "the server failed; the request may be retried with the same Idempotency-Key",
    instance,
  };
  const headers: Record<string, string> = { "content-type": "application/problem+json" };
  if (refusal?.retryAfterS) headers["retry-after"] = String(refusal.retryAfterS);
  return { statusCode: status, headers, body: JSON.stringify(body) };
}
