import { API_VERSION } from "@eo/contract";
import { renderOpenApiYaml } from "@eo/contract/openapi";
import { buildOpenApiDocument } from "@eo/contract/openapi-document";
import type { LocalAnswer } from "../runtime/http-front";
import { apiReferencePage, LOCAL_RENDERER } from "./api-reference-page";
import { swaggerUiAsset } from "./swagger-ui-assets";

/**
 * The local API reference for `GET /_local/docs` and friends: the page, the renderer's files under
 * `/_local/docs/…` (from the installed package, so it works offline) and the raw OpenAPI document.
 */
export function apiReferenceAnswer(path: string): LocalAnswer | undefined {
  if (path === "/_local/docs")
    return { status: 200, raw: { contentType: "text/html; charset=utf-8", text: apiReferencePage() } };
  if (path.startsWith(`${LOCAL_RENDERER}/`)) {
    const asset = swaggerUiAsset(path.slice(LOCAL_RENDERER.length + 1));
    return asset ? { status: 200, raw: asset } : undefined;
  }
  if (path === "/_local/openapi.yaml")
    return { status: 200, raw: { contentType: "application/yaml", text: renderOpenApiYaml() } };
  if (path === "/_local/openapi.json") return { status: 200, body: buildOpenApiDocument(API_VERSION) };
  return undefined;
}
