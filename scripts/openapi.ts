/**
 * Writes docs/openapi.yaml from the contract's schemas, or with --check says whether it is current.
 * Exit codes: 0 written or current, 1 out of date (--check), 2 usage.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { OPENAPI_PATH, renderOpenApiYaml } from "@eo/contract/openapi";

const args = process.argv.slice(2);
if (args.some((a) => a !== "--check")) {
  console.error("usage: npm run openapi [-- --check]");
  process.exit(2);
}
const target = resolve(import.meta.dirname, "..", OPENAPI_PATH);
const fresh = renderOpenApiYaml();
let current = "";
try {
  current = readFileSync(target, "utf8");
} catch {
  // absent: out of date
}
const paths = (fresh.match(/^ {2}\/\S+:$/gm) ?? []).length;
if (current === fresh) {
  console.log(`${OPENAPI_PATH} is current (${paths} paths)`);
} else if (args.includes("--check")) {
  console.error(`${OPENAPI_PATH} is out of date: run npm run openapi and commit it`);
  process.exit(1);
} else {
  writeFileSync(target, fresh);
  console.log(`wrote ${OPENAPI_PATH} (${paths} paths, ${fresh.length} bytes)`);
}
