import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { GatewayMessage, PROBLEM_KINDS, Problem, type ProblemKind, problemType } from "../problem";
import { type ResponseDoc, ROUTES, type RouteDoc } from "../routes";

const HEADERS = {
  "Retry-After": z
    .string()
    .meta({ description: "Seconds to wait before retrying with the same key.", example: "2" }),
  "Idempotent-Replayed": z.literal("true").meta({ description: "Present on a repeat of a final answer." }),
};

/** The API's OpenAPI 3.1 document, generated from the same schemas the handlers validate with. */
export function buildOpenApiDocument(version: string): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const [key, route] of Object.entries(ROUTES) as Array<[string, RouteDoc]>) {
    const [method, path] = key.split(" ") as [string, string];
    paths[path] = { ...paths[path], [method.toLowerCase()]: operationOf(route) };
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "effectively-once payments API",
      version,
      description:
        "A payment tapped once is charged once, credited once and notified once. Errors are RFC 9457 problems (`application/problem+json`); each problem `type` is listed with its status.",
    },
    servers: [
      { url: "http://127.0.0.1:3000", description: "the local stack's primary Region (`npm start`)" },
    ],
    components: {
      securitySchemes: {
        jwt: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT",
          description: "The caller is the token's `sub`.",
        },
      },
    },
    paths,
  });
}

function operationOf(route: RouteDoc): ZodOpenApiOperationObject {
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const [status, doc] of Object.entries(route.responses)) responses[status] = responseOf(doc);
  if (route.auth === "jwt") {
    responses["401"] = {
      description:
        "A missing, expired or badly signed token (API Gateway's JWT authorizer; no handler runs).",
      content: { "application/json": { schema: GatewayMessage } },
    };
  }
  responses["500"] = {
    description: "The server failed; retry with the same Idempotency-Key.",
    content: { "application/problem+json": { schema: Problem.extend({ type: z.literal("about:blank") }) } },
  };
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: route.description,
    security: route.auth === "jwt" ? [{ jwt: [] }] : [],
    requestParams: {
      ...(route.headers ? { header: route.headers } : {}),
      ...(route.params ? { path: route.params } : {}),
    },
    ...(route.body
      ? { requestBody: { required: true, content: { "application/json": { schema: route.body } } } }
      : {}),
    responses,
  };
}

function responseOf(doc: ResponseDoc): ZodOpenApiResponseObject {
  // A problem's Retry-After comes with some of its kinds only (in-progress, not key-voided).
  const header = (h: keyof typeof HEADERS) => (doc.problems ? HEADERS[h].optional() : HEADERS[h]);
  const headers = doc.headers?.length
    ? z.object(Object.fromEntries(doc.headers.map((h) => [h, header(h)])))
    : undefined;
  if (!doc.problems) {
    return {
      description: doc.description,
      ...(headers ? { headers } : {}),
      ...(doc.schema ? { content: { "application/json": { schema: doc.schema } } } : {}),
    };
  }
  return {
    description: `${doc.description}\n\n${doc.problems.map((k) => `- \`${problemType(k)}\`: ${PROBLEM_KINDS[k].means}`).join("\n")}`,
    ...(headers ? { headers } : {}),
    content: {
      "application/problem+json": { schema: problemOf(doc.problems), examples: examplesOf(doc.problems) },
    },
  };
}

function problemOf(kinds: readonly ProblemKind[]) {
  const types = kinds.map(problemType) as [string, ...string[]];
  return Problem.extend({ type: z.enum(types) });
}

function examplesOf(kinds: readonly ProblemKind[]) {
  return Object.fromEntries(
    kinds.map((k) => [
      k,
      {
        summary: PROBLEM_KINDS[k].title,
        value: {
          type: problemType(k),
          title: PROBLEM_KINDS[k].title,
          status: PROBLEM_KINDS[k].status,
          detail: PROBLEM_KINDS[k].means,
        },
      },
    ]),
  );
}
