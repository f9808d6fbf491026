import type { HttpHandlerOptions, HttpRequest, HttpResponse } from "@smithy/types";

/** A reply before it is encoded: the status, the headers and the body text. */
export interface WireReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * The transport the SDK calls instead of the network: a Smithy `HttpHandler` whose `handle` answers from a model.
 * Shared by the SQS, SNS and SES models so that each writes only its protocol's decoding and encoding.
 */
export interface ModelHttpHandler {
  handle(request: HttpRequest, options?: HttpHandlerOptions): Promise<{ response: HttpResponse }>;
  updateHttpClientConfig(key: never, value: never): void;
  httpHandlerConfigs(): Record<string, never>;
  destroy(): void;
}

/** What a model's protocol layer does with one request. */
export type AnswerRequest = (request: HttpRequest, body: string, signal?: AbortSignal) => Promise<WireReply>;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Builds the `requestHandler` for an SDK client from a protocol layer's answer function. */
export function modelHttpHandler(answer: AnswerRequest): ModelHttpHandler {
  return {
    async handle(request, options) {
      const body = await bodyText(request.body);
      const reply = await answer(request, body, options?.abortSignal as AbortSignal | undefined);
      const response: HttpResponse = {
        statusCode: reply.status,
        headers: { ...reply.headers, "content-length": String(encoder.encode(reply.body).length) },
        body: encoder.encode(reply.body),
      };
      return { response };
    },
    updateHttpClientConfig() {},
    httpHandlerConfigs: () => ({}),
    destroy() {},
  };
}

/** The request body as text, whatever form the SDK's serializer left it in. */
async function bodyText(body: unknown): Promise<string> {
  if (body === undefined || body === null) return "";
  if (typeof body === "string") return body;
  if (body instanceof Uint8Array) return decoder.decode(body);
  if (body instanceof ArrayBuffer) return decoder.decode(new Uint8Array(body));
  if (typeof (body as AsyncIterable<unknown>)[Symbol.asyncIterator] === "function") {
    let text = "";
    for await (const chunk of body as AsyncIterable<Uint8Array | string>)
      text += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    return text;
  }
  throw new Error(`the model transport cannot read a request body of type ${typeof body}`);
}

/** A request id for `ResponseMetadata`: derived from a counter, never from randomness. */
export function requestIdFrom(n: number): string {
  const hex = n.toString(16).padStart(12, "0");
  return `00000000-0000-4000-8000-${hex}`;
}
