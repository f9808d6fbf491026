import { PROBLEM_KINDS, problemType } from "@eo/contract";
import { findRefusal } from "@eo/core";
import type { APIGatewayProxyStructuredResultV2 } from "aws-lambda";

/** The one place where errors become HTTP: a refusal is its problem+json (the contract's table); anything else is a 500. */
export function toProblem(err: unknown, instance?: string): APIGatewayProxyStructuredResultV2 {
  const refusal = findRefusal(err);
  const kind = refusal ? PROBLEM_KINDS[refusal.kind] : undefined;
  const status = kind?.status ?? 500;
  const body = {
    type: refusal ? problemType(refusal.kind) : "about:blank",
    title: kind?.title ?? "Internal Server Error",
    status,
    detail: refusal?.detail ?? "the server failed; the request may be retried with the same Idempotency-Key",
    instance,
  };
  const headers: Record<string, string> = { "content-type": "application/problem+json" };
  if (refusal?.retryAfterS) headers["retry-after"] = String(refusal.retryAfterS);
  return { statusCode: status, headers, body: JSON.stringify(body) };
}
