import { defineConfig } from "vitest/config";

// Each test file that needs AWS starts its own local stack on free ports (one per process), so
// files run in parallel without colliding; two workers match the 2-core machines this runs on.
// A file named `*.alone.test.ts` judges timing (a bounded sample of a load run): it runs after every other file,
// by itself, since another stack sharing the two cores would decide its figures.
const ALONE = "**/*.alone.test.ts";
// Timing counterfactuals that need the two cores to themselves (30 taps at once must outrun the PSP budget), which the
// suite's background simulation does not leave them: they run with the timing files, after everything else.
const ALONE_FOR_TIMING = ["test/payments/psp-rate-limits.test.ts"];
// The simulated runs npm test plays in the background (test/support/sim-background/plan.ts) and the files that judge
// their reports: those files run after every emulator file, when the runs have had the cores the emulators left idle.
const SIM_BACKGROUND = "test/sim/background/**/*.test.ts";
// The payment, resolver, refund, webhook and reconcile traces that run a second time with the stack's PSP speaking
// Stripe's dialect (PSP=stripe: the handlers call it through the official SDK, its events go to /webhooks/stripe).
// Chosen for what the dialect changes (the adapter's replies, lookups, refunds, events), about 90 s on 2 cores.
export const TWICE_ON_STRIPE = [
  "test/payments/lost-reply.test.ts",
  "test/payments/resolver-index.test.ts",
  "test/payments/refund-and-webhook.test.ts",
  "test/payments/refund-refused.test.ts",
  "test/payments/early-psp-events.test.ts",
  "test/payments/late-original.test.ts",
  "test/payments/crash-points.test.ts",
  "test/payments/reconcile-cron.test.ts",
  // the seed's whole story on Stripe: `PSP=stripe npm run story` ends with the seed's count
  "test/story/story.test.ts",
];
// Traces that need Stripe's own behaviour (pending refunds, refunds that fail later): run in Stripe's dialect only.
export const STRIPE_ONLY = [
  "test/payments/refund-fails-later.test.ts",
  "test/payments/intent-processing.test.ts",
  "test/chaos/refund-fails-later-schedule.test.ts",
  "test/sim/stripe-regressions-in-sim.test.ts",
];
export default defineConfig({
  test: {
    // Checks Java and the browser before any file starts: a missing one stops the run at once with what to install.
    globalSetup: ["test/support/preflight/global-setup.ts"],
    pool: "forks",
    testTimeout: 60_000,
    hookTimeout: 240_000,
    teardownTimeout: 30_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: "true", POWERTOOLS_LOG_LEVEL: "ERROR" },
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["test/**/*.test.ts", "packages/*/test/**/*.test.ts"],
          exclude: [ALONE, ...ALONE_FOR_TIMING, SIM_BACKGROUND, ...STRIPE_ONLY, "**/node_modules/**"],
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "stripe",
          include: [...TWICE_ON_STRIPE, ...STRIPE_ONLY],
          env: { PSP: "stripe" },
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "sim",
          include: [SIM_BACKGROUND],
          globalSetup: ["test/support/sim-background/global-setup.ts"],
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      {
        extends: true,
        test: {
          name: "alone",
          include: ["test/**/*.alone.test.ts", ...ALONE_FOR_TIMING],
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
