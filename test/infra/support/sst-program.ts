/**
 * Builds the SST program the way the `sst` CLI does (esbuild: globals injected, `$app`/`$cli`/`$dev` defined,
 * the platform's run shim injected, `@pulumi/*` external) and runs it under Pulumi mocks in a child process.
 * This leans on SST internals, which is why `sst` is pinned exactly.
 */
import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { build, type Plugin } from "esbuild";
import type { Capture } from "./capture";
import { CHECKS_DIR, PLATFORM_DIR, ROOT } from "./platform";

const run = promisify(execFile);
/** Bundles live inside .sst/platform so that `@pulumi/*` resolve from its node_modules, as for the CLI. */
const BUILD_DIR = join(PLATFORM_DIR, "offline-checks");

/** One way of running the app: a stage and the environment its settings and secrets come from. */
export interface Scenario {
  name: string;
  stage: string;
  env: Record<string, string>;
}

/** The built bundles: one evaluates `app()`, the other runs `run()` under mocks. */
export interface ProgramBundles {
  appEval: string;
  program: string;
}

/** The same banner the CLI puts on its bundles (the platform code uses require and __dirname). */
const CLI_BANNER = [
  `import { createRequire as topLevelCreateRequire } from 'module';`,
  `const require = topLevelCreateRequire(import.meta.url);`,
  `import { fileURLToPath as topLevelFileUrlToPath, URL as topLevelURL } from "url"`,
  `const __filename = topLevelFileUrlToPath(import.meta.url)`,
  `const __dirname = topLevelFileUrlToPath(new topLevelURL(".", import.meta.url))`,
].join("\n");

const CLI_EXTERNALS = [
  "@pulumi/*",
  "undici",
  "@pulumiverse/*",
  "@sst-provider/*",
  "@aws-sdk/*",
  "esbuild",
  "archiver",
  "glob",
  "vite",
];

/** Like the CLI, prepends the provider globals (`aws`, `sst`) to every source file outside .sst/. */
const injectGlobals: Plugin = {
  name: "inject-globals",
  setup(b) {
    const globals = [
      `import * as aws from "@pulumi/aws";`,
      `import * as sst from ${JSON.stringify(join(PLATFORM_DIR, "src/components"))};`,
    ].join("\n");
    b.onLoad({ filter: /\.(js|ts|jsx|tsx)$/ }, (args) => {
      if (args.path.includes(`${ROOT}/.sst/`) || args.path.includes("/node_modules/")) return undefined;
      return { contents: `${globals}\n${readFileSync(args.path, "utf8")}`, loader: "default" };
    });
  },
};

/** Builds both bundles (about a second). */
export async function buildProgram(): Promise<ProgramBundles> {
  rmSync(BUILD_DIR, { recursive: true, force: true });
  mkdirSync(BUILD_DIR, { recursive: true });
  const common = {
    bundle: true,
    platform: "node" as const,
    format: "esm" as const,
    mainFields: ["module", "main"],
    nodePaths: [join(PLATFORM_DIR, "node_modules")],
    external: CLI_EXTERNALS,
    logLevel: "silent" as const,
    absWorkingDir: ROOT,
  };
  const appEval = join(BUILD_DIR, "app-eval.mjs");
  await build({
    ...common,
    outfile: appEval,
    banner: { js: `${CLI_BANNER}\nfunction $config(input) { return input }` },
    stdin: {
      contents: [
        `import mod from ${JSON.stringify(join(ROOT, "sst.config.ts"))};`,
        `const app = await mod.app({ stage: process.env.SST_MOCKS_STAGE });`,
        `process.stdout.write(JSON.stringify(app));`,
      ].join("\n"),
      resolveDir: ROOT,
      sourcefile: "app-eval.ts",
      loader: "ts",
    },
  });
  const program = join(BUILD_DIR, "program.mjs");
  await build({
    ...common,
    outfile: program,
    sourcemap: "inline",
    banner: {
      js: [
        CLI_BANNER,
        `globalThis.__SST_MOCKS_APP__ = JSON.parse(process.env.SST_MOCKS_APP);`,
        `globalThis.__SST_MOCKS_CLI__ = JSON.parse(process.env.SST_MOCKS_CLI);`,
      ].join("\n"),
    },
    define: { $app: "globalThis.__SST_MOCKS_APP__", $cli: "globalThis.__SST_MOCKS_CLI__", $dev: "false" },
    inject: [join(PLATFORM_DIR, "src/shim/run.js")],
    plugins: [injectGlobals],
    stdin: {
      contents: [
        `import * as pulumi from "@pulumi/pulumi";`,
        `import { run } from ${JSON.stringify(join(PLATFORM_DIR, "src/auto/run.ts"))};`,
        `import mod from ${JSON.stringify(join(ROOT, "sst.config.ts"))};`,
        `import { drive } from ${JSON.stringify(join(ROOT, "test/infra/support/mocks-driver.ts"))};`,
        `await drive(pulumi, (beforeRun) => run(async () => { beforeRun(); return mod.run(); }));`,
      ].join("\n"),
      resolveDir: ROOT,
      sourcefile: "eval.ts",
      loader: "ts",
    },
  });
  return { appEval, program };
}

/** Evaluates `app()` for the scenario's stage, then runs the whole program under mocks and returns its capture. */
export async function runScenario(bundles: ProgramBundles, scenario: Scenario): Promise<Capture> {
  const env = { ...cleanEnv(), ...scenario.env, SST_MOCKS_STAGE: scenario.stage };
  const evaluated = await run(process.execPath, [bundles.appEval], { cwd: ROOT, env });
  const app = JSON.parse(evaluated.stdout) as Record<string, unknown>;
  const providers = Object.fromEntries(
    Object.entries((app.providers ?? {}) as Record<string, unknown>).map(([k, v]) => [
      k,
      typeof v === "string" ? { version: v } : v,
    ]),
  );
  const work = join(CHECKS_DIR, `work-${scenario.name}`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  const out = join(work, "capture.json");
  const sstApp = {
    ...app,
    providers,
    stage: scenario.stage,
    removal: app.removal ?? "retain",
    protect: !!app.protect,
  };
  const sstCli = {
    command: "deploy",
    dev: false,
    paths: { home: join(work, "home"), root: ROOT, work, platform: PLATFORM_DIR },
    state: { version: {} },
  };
  const awsRegion = (providers.aws as { region?: string } | undefined)?.region ?? "us-east-1";
  await run(process.execPath, ["--enable-source-maps", "--no-warnings", bundles.program], {
    cwd: ROOT,
    timeout: 120_000,
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...env,
      SST_MOCKS_APP: JSON.stringify(sstApp),
      SST_MOCKS_CLI: JSON.stringify(sstCli),
      SST_MOCKS_OUT: out,
      SST_MOCKS_DEFAULT_REGION: awsRegion,
      PULUMI_CONFIG: JSON.stringify({ "aws:region": awsRegion }),
    },
  });
  return JSON.parse(readFileSync(out, "utf8")) as Capture;
}

/** The parent's environment without anything that could change the app's settings or reach AWS. */
function cleanEnv(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^(AWS_|SST_|PULUMI_)/.test(k)) continue;
    env[k] = v;
  }
  for (const k of [
    "PRIMARY_REGION",
    "STANDBY_REGION",
    "WITNESS_REGION",
    "CLAIM_MODE",
    "CONTROL_MODE",
    "ACTIVE_REGION",
    "JWT_ISSUER",
    "JWT_AUDIENCE",
  ]) {
    delete env[k];
  }
  for (const k of ["EMAIL_SENDER", "APNS_PLATFORM", "STAGE_KIND", "ONCALL_EMAIL", "ONCALL_HTTPS_URL"])
    delete env[k];
  return env;
}
