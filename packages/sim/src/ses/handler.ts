import type { HttpRequest } from "@smithy/types";
import { type ModelHttpHandler, modelHttpHandler, requestIdFrom, type WireReply } from "../sqs/transport";
import { SesError, type SesModel, sesUnsupported } from "./model";

/**
 * The SDK transport for an SesModel: REST-JSON, `POST /v2/email/outbound-emails` for SendEmail; every other
 * route is refused by name. Errors carry `x-amzn-ErrorType`, from which the SDK picks its exception class.
 */
export function sesModelHandler(model: SesModel): ModelHttpHandler {
  let requests = 0;
  return modelHttpHandler(async (request: HttpRequest, body: string) => {
    const requestId = requestIdFrom(++requests);
    try {
      if (request.method !== "POST" || request.path !== "/v2/email/outbound-emails")
        throw sesUnsupported(`the route ${request.method} ${request.path}`);
      const messageId = model.sendEmail(body ? JSON.parse(body) : {});
      return reply(200, requestId, { MessageId: messageId });
    } catch (err) {
      if (!(err instanceof SesError)) throw err;
      return reply(err.status, requestId, { message: err.message }, err.type);
    }
  });
}

function reply(status: number, requestId: string, body: unknown, errorType?: string): WireReply {
  return {
    status,
    headers: {
      "content-type": "application/json",
      "x-amzn-requestid": requestId,
      ...(errorType ? { "x-amzn-errortype": errorType } : {}),
    },
    body: JSON.stringify(body),
  };
}
