import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { PROBLEM_BASE } from "../../packages/contract/src";
import { OPENAPI_PATH, renderOpenApiYaml } from "../../packages/contract/src/openapi/render-yaml";
import { handlers } from "../../stacks/handlers";

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, { responses: Record<string, Response> }>>;
};
type Response = {
  content?: Record<string, { schema?: { type?: string; properties?: { type?: { enum?: string[] } } } }>;
};

const committed = readFileSync(OPENAPI_PATH, "utf8");
const doc = parse(committed) as Doc;
const op = (route: string) => {
  const [method, path] = route.split(" ") as [string, string];
  return doc.paths[path]?.[method.toLowerCase()];
};
/** The problem types a route's status documents. */
const problemTypes = (route: string, status: number) =>
  op(route)?.responses[String(status)]?.content?.["application/problem+json"]?.schema?.properties?.type
    ?.enum ?? [];

describe("the OpenAPI document", () => {
  it("is the one the schemas generate today (run `npm run openapi` when this fails)", () => {
    expect(committed).toBe(renderOpenApiYaml());
    expect(doc.openapi).toBe("3.1.0");
  });

  it("documents every HTTP route that stacks/handlers.ts deploys", () => {
    const routes = handlers.flatMap((h) => (h.trigger.kind === "http" ? [h.trigger.route] : []));
    expect(routes.length).toBeGreaterThanOrEqual(7);
    for (const route of routes) expect(op(route), route).toBeDefined();
  });

  // The contract's table for POST /payments and the statuses it names for the other routes.
  it.each([
    ["POST /payments", 201, undefined],
    ["POST /payments", 402, undefined],
    ["POST /payments", 202, undefined],
    ["POST /payments", 409, "in-progress"],
    ["POST /payments", 409, "key-voided"],
    ["POST /payments", 422, "fingerprint-mismatch"],
    ["POST /payments", 400, "bad-request"],
    ["POST /payments", 413, "too-large"],
    ["POST /payments", 503, "deadline-passed"],
    ["POST /payments", 503, "region-passive"],
    ["POST /payments/resolve", 200, undefined],
    ["GET /payments/{payment_id}", 200, undefined],
    ["GET /payments/{payment_id}", 404, "not-found"],
    ["POST /payments/{payment_id}/cancel", 202, undefined],
    ["POST /payments/{payment_id}/cancel", 200, undefined],
    ["POST /payments/{payment_id}/cancel", 409, "refund-refused"],
    ["POST /devices", 201, undefined],
    ["DELETE /devices/{device_id}", 204, undefined],
    ["DELETE /devices/{device_id}", 404, "not-found"],
    ["POST /webhooks/psp", 400, "bad-request"],
    ["POST /webhooks/stripe", 200, undefined],
    ["POST /webhooks/stripe", 400, "bad-request"],
    ["POST /webhooks/stripe", 404, "not-found"],
    ["POST /webhooks/stripe", 503, "event-ahead"],
  ])("%s documents %i %s", (route, status, kind) => {
    expect(op(route)?.responses[String(status)], `${route} ${status}`).toBeDefined();
    if (kind) expect(problemTypes(route, status)).toContain(`${PROBLEM_BASE}${kind}`);
  });

  it("gives every problem status a problem type, and every answer a schema or an empty body", () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const where = `${method} ${path} ${status}`;
          if (Number(status) >= 400 && !["401", "402"].includes(status))
            expect(response.content?.["application/problem+json"], where).toBeDefined();
          if (status !== "204") expect(response.content, where).toBeDefined();
        }
      }
    }
  });
});
