import { stringify } from "yaml";
import { API_VERSION } from "../routes";
import { buildOpenApiDocument } from "./build-document";

/** Where the committed document lives, relative to the repository root. */
export const OPENAPI_PATH = "docs/openapi.yaml";

/** The committed form of the document: YAML with a header that says it is generated. */
export function renderOpenApiYaml(): string {
  const header =
    "# Generated from packages/contract by `npm run openapi`; do not edit by hand.\n" +
    "# `npm test` fails when this file is out of date.\n";
  return (
    header + stringify(buildOpenApiDocument(API_VERSION), { lineWidth: 0, aliasDuplicateObjects: false })
  );
}
