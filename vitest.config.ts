import { defineConfig } from "vitest/config";

// Each test file that needs AWS starts its own local stack on free ports (one per process), so
// files run in parallel without colliding; two workers match the 2-core machines this runs on.
export default defineConfig({
  test: {
    // Checks Java and the browser before any file starts: a missing one stops the run at once with what to install.
    globalSetup: ["test/support/preflight/global-setup.ts"],
    include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
    pool: "forks",
    maxWorkers: 2,
    testTimeout: 60_000,
    hookTimeout: 240_000,
    teardownTimeout: 30_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", POWERTOOLS_LOG_LEVEL: "ERROR" },
  },
});
