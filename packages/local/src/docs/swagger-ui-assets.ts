import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The renderer's files the page loads, by the name they are served under (`/_local/docs/<name>`). */
const ASSETS: Record<string, string> = {
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui.css": "text/css; charset=utf-8",
};

const cache = new Map<string, string>();

/**
 * One of Swagger UI's files, read from the installed `swagger-ui-dist` (a pinned dependency) so that the API
 * reference needs no network; undefined for any other name.
 */
export function swaggerUiAsset(name: string): { contentType: string; text: string } | undefined {
  const contentType = ASSETS[name];
  if (!contentType) return undefined;
  let text = cache.get(name);
  if (text === undefined) {
    const dir = dirname(createRequire(import.meta.url).resolve("swagger-ui-dist/package.json"));
    // The source maps are not served, so the references to them go too (DevTools would ask for them).
    text = readFileSync(join(dir, name), "utf8").replace(/\/[/*]# sourceMappingURL=\S+\s*$/, "");
    cache.set(name, text);
  }
  return { contentType, text };
}
