import { API_VERSION } from "@eo/contract";
import { renderOpenApiYaml } from "@eo/contract/openapi";
import { buildOpenApiDocument } from "@eo/contract/openapi-document";
import type { LocalAnswer } from "../runtime/http-front";

// Scalar's standalone bundle, pinned and checked by its hash. It is loaded by the browser from jsDelivr
// rather than shipped: the npm package is 55 MB with its dependencies, for one page a person opens now
// and then. Offline, the page says so and links the raw document, which is always served from here.
const SCALAR = {
  src: "https://cdn.jsdelivr.net/npm/@scalar/api-reference@1.76.0/dist/browser/standalone.js",
  integrity: "sha384-oH1C0RwqcwbVXkC+r8A+4qRoyEUQdtxAzOwumkxZtQBBcsy61FOoPt7B50OVJYYQ",
};

const page = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>effectively-once API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1" />
</head>
<body>
  <div id="app"><p style="font-family:sans-serif;margin:2em">Loading the API reference… The raw document is at
    <a href="/_local/openapi.yaml">/_local/openapi.yaml</a> and <a href="/_local/openapi.json">/_local/openapi.json</a>.</p></div>
  <script src="${SCALAR.src}" integrity="${SCALAR.integrity}" crossorigin="anonymous"
    onerror="document.querySelector('#app p').insertAdjacentText('afterbegin', 'The renderer could not be loaded (offline?). ')"></script>
  <script>
    if (window.Scalar) Scalar.createApiReference("#app", { url: "/_local/openapi.json", hideClientButton: false });
  </script>
</body>
</html>
`;

/** The local API reference: the rendered page and the raw OpenAPI document, for `GET /_local/docs` and friends. */
export function apiReferenceAnswer(path: string): LocalAnswer | undefined {
  if (path === "/_local/docs")
    return { status: 200, raw: { contentType: "text/html; charset=utf-8", text: page } };
  if (path === "/_local/openapi.yaml")
    return { status: 200, raw: { contentType: "application/yaml", text: renderOpenApiYaml() } };
  if (path === "/_local/openapi.json") return { status: 200, body: buildOpenApiDocument(API_VERSION) };
  return undefined;
}
