import { injectLambdaContext } from "@aws-lambda-powertools/logger/middleware";
import {
  clock,
  countSignal,
  findRefusal,
  loadTunables,
  Refusal,
  regionGate,
  withRequestView,
} from "@eo/core";
import middy from "@middy/core";
import type {
  APIGatewayProxyEventV2WithJWTAuthorizer,
  APIGatewayProxyStructuredResultV2,
  Context,
} from "aws-lambda";
import { logger } from "./observability";
import { toProblem } from "./problem";

export type ApiEvent = APIGatewayProxyEventV2WithJWTAuthorizer;
export interface Answer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Wraps an API operation in middy with the shared logger and the one error-to-HTTP mapping. */
export function httpHandler(name: string, operation: (event: ApiEvent, context: Context) => Promise<Answer>) {
  return middy(async (event: ApiEvent, context: Context): Promise<APIGatewayProxyStructuredResultV2> => {
    try {
      const a = await withRequestView(timeLeftOf(event), async () => {
        await refuseWritesWhenPassive(event);
        return operation(event, context);
      });
      countAnswer(name, a.status, "none");
      return {
        statusCode: a.status,
        headers: { "content-type": "application/json", ...a.headers },
        // A 204 has no content (RFC 9110), not even "{}".
        body: a.status === 204 ? "" : JSON.stringify(a.body ?? {}),
      };
    } catch (err) {
      const refusal = findRefusal(err);
      if (!refusal) logger.error(`${name} failed`, { error: err as Error });
      const problem = toProblem(err, event.rawPath);
      countAnswer(name, problem.statusCode ?? 500, refusal?.kind ?? "internal");
      return problem;
    }
  }).use(injectLambdaContext(logger));
}

/** The time a request has left before the deadline that runs from its arrival at API Gateway. */
function timeLeftOf(event: ApiEvent): () => number {
  const deadlineAt = event.requestContext.timeEpoch + loadTunables().deadlineMs;
  return () => deadlineAt - clock.now();
}

/** The payment operations whose answers are the buyer's view on the dashboard (devices and webhooks are not). */
const PAYMENT_OPERATIONS = new Set(["create-payment", "resolve-payment", "get-payment", "cancel-payment"]);

/** Counts one payment answer by status and problem kind (`none` for a success, `internal` for a 500). */
function countAnswer(name: string, status: number, kind: string): void {
  if (PAYMENT_OPERATIONS.has(name)) countSignal("PaymentAnswers", 1, { Status: String(status), Kind: kind });
}

/** The caller is the token's `sub`, never a header or body field. */
export function callerOf(event: ApiEvent): string {
  const sub = event.requestContext.authorizer?.jwt?.claims?.sub;
  if (typeof sub !== "string" || sub === "") throw new Refusal("unauthorized", "the token has no sub");
  return sub;
}

/** The buyer's email claim, where the token carries one. */
export function emailOf(event: ApiEvent): string | undefined {
  const email = event.requestContext.authorizer?.jwt?.claims?.email;
  return typeof email === "string" && email.includes("@") ? email : undefined;
}

/** The raw body as text, whatever API Gateway did with its encoding. */
export function bodyOf(event: ApiEvent): string | undefined {
  if (event.body === undefined) return undefined;
  return event.isBase64Encoded ? Buffer.from(event.body, "base64").toString("utf8") : event.body;
}

// A passive Region takes no writes: a claim made there during replication lag would not be seen by the
// active Region's (Part 9, branch F2). Reads from the replica are fine. The control is read at most a
// moment ago, so a Region the failover script fenced refuses from then on, whatever it believed before.
async function refuseWritesWhenPassive(event: ApiEvent): Promise<void> {
  if (event.requestContext.http?.method === "GET") return;
  await regionGate().assertActive();
}
