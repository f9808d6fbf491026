import type { HttpRequest } from "@smithy/types";
import { SqsError, sqsUnsupported } from "./errors";
import type { SqsModel } from "./model";
import { SQS_OPERATIONS } from "./operations";
import { type ModelHttpHandler, modelHttpHandler, requestIdFrom, type WireReply } from "./transport";

const JSON_TYPE = "application/x-amz-json-1.0";

/**
 * The SDK transport for an SqsModel: decodes AWS JSON 1.0 (`X-Amz-Target: AmazonSQS.<Op>`), runs the operation,
 * and answers as SQS does, errors included (`__type` plus the query-compatible `x-amzn-query-error` header).
 */
export function sqsModelHandler(model: SqsModel): ModelHttpHandler {
  let requests = 0;
  return modelHttpHandler(async (request: HttpRequest, body: string, signal?: AbortSignal) => {
    const requestId = requestIdFrom(++requests);
    try {
      const out = await answer(model, request, body, signal);
      return reply(200, { "x-amzn-requestid": requestId }, out);
    } catch (err) {
      if (!(err instanceof SqsError)) throw err;
      return reply(
        err.status,
        { "x-amzn-requestid": requestId, "x-amzn-query-error": `${err.queryCode};Sender` },
        { __type: `com.amazonaws.sqs#${err.shape}`, message: err.message },
      );
    }
  });
}

async function answer(
  model: SqsModel,
  request: HttpRequest,
  body: string,
  signal?: AbortSignal,
): Promise<unknown> {
  const target = headerOf(request, "x-amz-target") ?? "";
  const [service, operation = ""] = target.split(".");
  if (service !== "AmazonSQS")
    throw sqsUnsupported(`the request target "${target}" (only AWS JSON 1.0 is modelled)`);
  const run = SQS_OPERATIONS[operation];
  if (!run) throw sqsUnsupported(`the operation ${operation}`);
  const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
  return run(model, input, signal);
}

function reply(status: number, headers: Record<string, string>, body: unknown): WireReply {
  return { status, headers: { "content-type": JSON_TYPE, ...headers }, body: JSON.stringify(body) };
}

/** A request header by case-insensitive name. */
export function headerOf(request: HttpRequest, name: string): string | undefined {
  for (const [k, v] of Object.entries(request.headers)) if (k.toLowerCase() === name) return v;
  return undefined;
}
