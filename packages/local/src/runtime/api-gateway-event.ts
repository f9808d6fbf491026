import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { APIGatewayProxyEventV2WithJWTAuthorizer } from "aws-lambda";
import type { JWTPayload } from "jose";

/** What the local front knows of one request when it builds the event. */
export interface FrontRequest {
  req: IncomingMessage;
  url: URL;
  body: Buffer;
  routeKey: string;
  pathParameters: Record<string, string>;
  claims: JWTPayload | undefined;
  /** The arrival stamp: the design's load-balancer stamp, taken before anything else runs. */
  timeEpoch: number;
}

const textTypes = /^(application\/(json|problem\+json|x-www-form-urlencoded|xml)|text\/)/i;

/** Builds an API Gateway HTTP API payload-v2.0 event, as API Gateway hands it to Lambda. */
export function toApiGatewayEvent(r: FrontRequest): APIGatewayProxyEventV2WithJWTAuthorizer {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(r.req.headers)) {
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join(",") : v;
  }
  const isText = textTypes.test(headers["content-type"] ?? "application/json");
  const query = Object.fromEntries(r.url.searchParams);
  return {
    version: "2.0",
    routeKey: r.routeKey,
    rawPath: r.url.pathname,
    rawQueryString: r.url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(r.pathParameters).length ? r.pathParameters : undefined,
    body: r.body.length ? (isText ? r.body.toString("utf8") : r.body.toString("base64")) : undefined,
    isBase64Encoded: r.body.length > 0 && !isText,
    stageVariables: undefined,
    requestContext: {
      accountId: "000000000000",
      apiId: "local",
      domainName: headers.host ?? "127.0.0.1",
      domainPrefix: "local",
      http: {
        method: r.req.method ?? "GET",
        path: r.url.pathname,
        protocol: `HTTP/${r.req.httpVersion}`,
        sourceIp: r.req.socket.remoteAddress ?? "127.0.0.1",
        userAgent: headers["user-agent"] ?? "",
      },
      requestId: randomUUID(),
      routeKey: r.routeKey,
      stage: "$default",
      time: new Date(r.timeEpoch).toISOString(),
      timeEpoch: r.timeEpoch,
      authorizer: {
        principalId: "",
        integrationLatency: 0,
        jwt: { claims: stringifyClaims(r.claims), scopes: [] },
      },
    },
  };
}

// API Gateway hands JWT claims to Lambda as strings and numbers; nested values become JSON text.
function stringifyClaims(
  claims: JWTPayload | undefined,
): Record<string, string | number | boolean | string[]> {
  const out: Record<string, string | number | boolean | string[]> = {};
  for (const [k, v] of Object.entries(claims ?? {})) {
    if (typeof v === "string" || typeof v === "number" || typeof v === "boolean") out[k] = v;
    else if (Array.isArray(v)) out[k] = v.map(String);
    else if (v !== undefined) out[k] = JSON.stringify(v);
  }
  return out;
}
