import { afterEach, describe, expect, it } from "vitest";
import { apiReferencePage } from "../../packages/local/src/docs/api-reference-page";
import { type BrowserPage, openBrowserPage } from "../support/browser/browser-page";
import { keepOnLoopback, staysLocal } from "../support/browser/loopback-only";
import { useLocalStack } from "../support/local-stack";

// The page as it was before the renderer came from the installed package: Swagger UI from a public CDN.
const CDN = "https://cdn.jsdelivr.net/npm/swagger-ui-dist@5.35.0";
const METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"];

const stack = useLocalStack();
const docsUrl = () => `${stack().apiUrl}/_local/docs`;
let page: BrowserPage | undefined;
afterEach(async () => {
  await page?.close();
  page = undefined;
}, 30_000);

/** Opens the API reference with the network cut off; `html` replaces the page the stack serves. */
async function openOffline(requested: string[], html?: string): Promise<BrowserPage> {
  const replace = html === undefined ? undefined : { url: docsUrl(), html };
  return openBrowserPage(docsUrl(), {
    timeoutMs: 60_000,
    prepare: (cdp, sessionId) => keepOnLoopback(cdp, sessionId, requested, replace),
  });
}

/** Every operation the OpenAPI document declares, as `METHOD /path`. */
async function declaredRoutes(): Promise<string[]> {
  const doc = (await fetch(`${stack().apiUrl}/_local/openapi.json`).then((r) => r.json())) as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.keys(item)
      .filter((m) => METHODS.includes(m))
      .map((m) => `${m.toUpperCase()} ${path}`),
  );
}

/** The operations the page shows, as `METHOD /path`, read from its rendered text (no hidden attributes). */
function listedRoutes(p: BrowserPage): Promise<string[]> {
  return p.evaluate<string[]>(`[...document.querySelectorAll(".opblock-summary")].map((s) =>
    [".opblock-summary-method", ".opblock-summary-path"]
      .map((c) => (s.querySelector(c)?.innerText ?? "").replace(/[\\u200b\\s]/g, ""))
      .join(" "))`);
}

describe("the local API reference with no network", () => {
  it("lists every route of the OpenAPI document, and the page asks nothing of any host but loopback", async () => {
    // prepare
    const requested: string[] = [];
    const declared = await declaredRoutes();
    // act
    page = await openOffline(requested);
    await page.waitForText((t) => t.includes("/webhooks/psp"), 30_000);
    const listed = await listedRoutes(page);
    // assess
    expect(declared).toEqual(expect.arrayContaining(["POST /payments", "GET /payments/{payment_id}"]));
    expect([...listed].sort()).toEqual([...declared].sort());
    expect(requested).toContain(`${docsUrl()}/swagger-ui-bundle.js`);
    expect(requested.filter((url) => !staysLocal(url))).toEqual([]);
  }, 90_000);

  it("lists no route when the page loads its renderer from a CDN, as it did before", async () => {
    // prepare
    const requested: string[] = [];
    // act
    page = await openOffline(requested, apiReferencePage(CDN));
    const text = await page.waitForText((t) => t.includes("could not be loaded"), 30_000);
    // assess
    expect(await listedRoutes(page)).toEqual([]);
    expect(text).not.toMatch(/POST\s*\/payments/);
    expect(requested).toContain(`${CDN}/swagger-ui-bundle.js`);
  }, 90_000);

  it("serves the renderer's files from the installed package, and nothing else under its path", async () => {
    // act
    const [bundle, css, other] = await Promise.all(
      ["swagger-ui-bundle.js", "swagger-ui.css", "package.json"].map((f) => fetch(`${docsUrl()}/${f}`)),
    );
    // assess
    expect(bundle?.status).toBe(200);
    expect(bundle?.headers.get("content-type")).toMatch(/^text\/javascript/);
    expect(await bundle?.text()).toMatch(/SwaggerUIBundle/);
    expect(css?.headers.get("content-type")).toMatch(/^text\/css/);
    expect(await css?.text()).not.toMatch(/sourceMappingURL/);
    expect(other?.status).toBe(404);
  });
});
