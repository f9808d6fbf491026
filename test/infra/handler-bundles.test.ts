import { execFile } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { build } from "esbuild";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type HandlerSpec,
  handlerExport,
  handlerExtensions,
  handlerModule,
  handlers,
} from "../../stacks/handlers";
import { CHECKS_DIR, ROOT } from "./support/platform";

/**
 * Where the handler modules are looked up: the repository, or (while the handlers are being written) a folder of
 * stand-ins outside the repository with the same relative paths, e.g. INFRA_HANDLERS_ROOT=/tmp/handler-standins.
 */
const HANDLERS_ROOT = process.env.INFRA_HANDLERS_ROOT ? resolve(process.env.INFRA_HANDLERS_ROOT) : ROOT;
const OUT_DIR = join(CHECKS_DIR, "bundles");

/** SST's banner for ESM Lambda bundles: CommonJS dependencies still find require, __filename and __dirname. */
const ESM_BANNER = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
  `const __filename = topLevelFileUrlToPath(import.meta.url)`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
].join("\n");

/** The environment a deployed function starts with (values are placeholders; nothing is called at import). */
const LAMBDA_ENV: Record<string, string> = {
  PATH: process.env.PATH ?? "/usr/bin:/bin",
  TZ: ":UTC",
  AWS_REGION: "us-east-1",
  AWS_DEFAULT_REGION: "us-east-1",
  AWS_EXECUTION_ENV: "AWS_Lambda_nodejs22.x",
  AWS_LAMBDA_FUNCTION_NAME: "offline-bundle-check",
  AWS_LAMBDA_FUNCTION_MEMORY_SIZE: "1024",
  AWS_ACCESS_KEY_ID: "offline",
  AWS_SECRET_ACCESS_KEY: "offline",
  AWS_SESSION_TOKEN: "offline",
  CLAIM_TABLE: "claims",
  LEDGER_TABLE: "ledger",
  CONSUMER_TABLE: "consumer",
  EVENTS_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/123456789012/events.fifo",
  CLAIM_MODE: "home",
  DEADLINE_MS: "5000",
  KEY_WINDOW_S: "3600",
  PSP_RATE_PER_S: "90",
  PSP_ENDPOINT_RATE_PER_S: "22",
  RESOLVER_RATE_PER_S: "10",
  PSP_URL: "https://psp.example.com",
  PUSH_APNS_APP_ARN: "arn:aws:sns:us-east-1:123456789012:app/APNS/offline",
  PUSH_FCM_APP_ARN: "arn:aws:sns:us-east-1:123456789012:app/GCM/offline",
  EMAIL_FROM: "receipts@example.com",
  REGION_ROLE: "primary",
  CONTROL_TABLE: "control-offline",
  // What SST adds; the PSP secrets are not plain variables in AWS (they come sealed in the link file).
  SST_RESOURCE_App: JSON.stringify({ name: "effectively-once", stage: "offline" }),
};

function sourceOf(spec: HandlerSpec): string | undefined {
  return handlerExtensions
    .map((ext) => join(HANDLERS_ROOT, `${handlerModule(spec)}${ext}`))
    .find((file) => existsSync(file));
}

const built = new Map<string, { bundle?: string; error?: string }>();
let loaded: Record<string, { type?: string; error?: string }> = {};

beforeAll(async () => {
  rmSync(OUT_DIR, { recursive: true, force: true });
  mkdirSync(OUT_DIR, { recursive: true });
  const buildOne = async (spec: HandlerSpec) => {
    const source = sourceOf(spec);
    if (!source) {
      built.set(spec.id, {
        error: `missing handler module ${handlerModule(spec)}{${handlerExtensions.join(",")}} under ${HANDLERS_ROOT}`,
      });
      return;
    }
    const bundle = join(OUT_DIR, spec.id, "index.mjs");
    try {
      // As SST builds a nodejs22.x function: one ESM file, everything bundled (the AWS SDK too).
      await build({
        entryPoints: [source],
        outfile: bundle,
        bundle: true,
        platform: "node",
        target: "node22",
        format: "esm",
        mainFields: ["module", "main"],
        keepNames: true,
        external: ["sharp", "pg-native"],
        banner: { js: ESM_BANNER },
        absWorkingDir: ROOT,
        logLevel: "silent",
      });
      built.set(spec.id, { bundle });
    } catch (error) {
      built.set(spec.id, { error: error instanceof Error ? error.message : String(error) });
    }
  };
  await Promise.all(handlers.map(buildOne));
  // Load every bundle in one fresh Node.js process, as the Lambda runtime imports a handler module.
  const toLoad = handlers.flatMap((spec) => {
    const bundle = built.get(spec.id)?.bundle;
    return bundle ? [[spec.id, pathToFileURL(bundle).href, handlerExport(spec)]] : [];
  });
  const loader = [
    "const out = {};",
    "for (const [id, url, name] of JSON.parse(process.argv[1])) {",
    "  try { const m = await import(url); out[id] = { type: typeof m[name] }; }",
    "  catch (e) { out[id] = { error: String((e && e.stack) || e) }; }",
    "}",
    "process.stdout.write(JSON.stringify(out));",
    "process.exit(0);",
  ].join("\n");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--input-type=module", "--no-warnings", "-e", loader, JSON.stringify(toLoad)],
    { cwd: OUT_DIR, env: LAMBDA_ENV, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
  );
  loaded = JSON.parse(stdout) as typeof loaded;
}, 180_000);

describe("handler bundles (esbuild, platform node, target node22, ESM)", () => {
  it.each(handlers.map((h) => [h.handler, h] as const))(
    "%s bundles and exports a handler function",
    (_h, spec) => {
      const result = built.get(spec.id);
      expect(result?.error).toBeUndefined();
      expect(loaded[spec.id]).toEqual({ type: "function" });
    },
  );
});
