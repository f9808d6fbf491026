import type { HttpRequest } from "@smithy/types";
import { type ModelHttpHandler, modelHttpHandler, requestIdFrom, type WireReply } from "../sqs/transport";
import { SnsError, snsUnsupported } from "./errors";
import type { SnsModel } from "./model";
import { has, SNS_OPERATIONS } from "./operations";
import { esc, parseQuery } from "./query";

const NS = "http://sns.amazonaws.com/doc/2010-03-31/";
const XML_TYPE = "text/xml";

/** Parameters with behaviour the model does not implement: refused by name rather than ignored. */
const REFUSED = ["MessageSystemAttributes"];

/**
 * The SDK transport for an SnsModel: decodes the awsQuery form (`Action=...&Version=2010-03-31`) and answers in
 * SNS's XML, errors as `<ErrorResponse>` with the code the SDK maps to its exception class.
 */
export function snsModelHandler(model: SnsModel): ModelHttpHandler {
  let requests = 0;
  return modelHttpHandler(async (_request: HttpRequest, body: string) => {
    const requestId = requestIdFrom(++requests);
    const { action, params } = parseQuery(body);
    try {
      const run = SNS_OPERATIONS[action];
      if (!run) throw snsUnsupported(`the action ${action}`);
      for (const key of REFUSED) if (has(params, key)) throw snsUnsupported(`the parameter ${key}`);
      const inner = run(model, params);
      return ok(action, inner, requestId);
    } catch (err) {
      if (!(err instanceof SnsError)) throw err;
      return failure(err, requestId);
    }
  });
}

function ok(action: string, inner: string, requestId: string): WireReply {
  const body =
    `<${action}Response xmlns="${NS}"><${action}Result>${inner}</${action}Result>` +
    `<ResponseMetadata><RequestId>${requestId}</RequestId></ResponseMetadata></${action}Response>`;
  return { status: 200, headers: { "content-type": XML_TYPE, "x-amzn-requestid": requestId }, body };
}

function failure(err: SnsError, requestId: string): WireReply {
  const type = err.status >= 500 ? "Receiver" : "Sender";
  const body =
    `<ErrorResponse xmlns="${NS}"><Error><Type>${type}</Type><Code>${esc(err.code)}</Code>` +
    `<Message>${esc(err.message)}</Message></Error><RequestId>${requestId}</RequestId></ErrorResponse>`;
  return { status: err.status, headers: { "content-type": XML_TYPE, "x-amzn-requestid": requestId }, body };
}
