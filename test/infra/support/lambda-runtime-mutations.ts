/** Break-on-purpose cases for issue 41, item 5: Lambda's runtime, and the scheduled jobs' retries. */
import type { Capture } from "./capture";
import { lambdaRuntime } from "./lambda-runtime-invariant";
import { type Mutation, resourceOf } from "./mutation";
import { SCENARIOS } from "./scenarios";
import { scheduledRetriesOff } from "./scheduled-retries-invariant";

const scenario = (name: string) => {
  const found = SCENARIOS.find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};
const fn = (c: Capture, name: string) => resourceOf(c, "aws:lambda/function:Function", `${name}Function`);
const invokeConfig = (c: Capture, name: string) =>
  resourceOf(
    c,
    "aws:lambda/functionEventInvokeConfig:FunctionEventInvokeConfig",
    `${name}ScheduledInvokeConfig`,
  );

export const LAMBDA_RUNTIME_MUTATIONS: Mutation[] = [
  {
    what: "a function left on Lambda's default architecture (x86_64, billed above arm64)",
    invariant: lambdaRuntime,
    on: scenario("home-dev"),
    breakIt: (c) => {
      delete fn(c, "StandbyNotifyWorker").inputs.architectures;
    },
    expectViolation: /standby: NotifyWorker runs on x86_64 \(the default\), not arm64/,
  },
  {
    what: "a function built for x86_64 explicitly",
    invariant: lambdaRuntime,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      fn(c, "PrimaryCreatePayment").inputs.architectures = ["x86_64"];
    },
    expectViolation: /primary: CreatePayment runs on x86_64, not arm64/,
  },
  {
    what: "a function with SST's default 1024 MB, not its spec's",
    invariant: lambdaRuntime,
    on: scenario("home-dev"),
    breakIt: (c) => {
      fn(c, "PrimaryRegisterDevice").inputs.memorySize = 1024;
    },
    expectViolation: /primary: RegisterDevice has 1024 MB, its spec names 256 MB/,
  },
  {
    what: "a function on the Node.js runtime past its Lambda deprecation",
    invariant: lambdaRuntime,
    on: scenario("single-region-staging"),
    breakIt: (c) => {
      fn(c, "StandbyReconcile").inputs.runtime = "nodejs20.x";
    },
    expectViolation: /standby: Reconcile runs nodejs20\.x, not nodejs22\.x/,
  },
  {
    what: "the standby's sweeps without an event invoke config (Lambda retries a failed pass twice)",
    invariant: scheduledRetriesOff,
    on: scenario("home-dev"),
    breakIt: (c) => {
      const config = invokeConfig(c, "StandbySweeps");
      c.resources = c.resources.filter((r) => r !== config);
    },
    expectViolation: /standby: Sweeps has 0 event invoke configs, expected 1/,
  },
  {
    what: "the resolver retried twice, as Lambda's default",
    invariant: scheduledRetriesOff,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      invokeConfig(c, "PrimaryResolver").inputs.maximumRetryAttempts = 2;
    },
    expectViolation: /primary: Resolver is retried 2 times after a failed pass/,
  },
  {
    what: "the reconcile's config on a version the schedule does not invoke",
    invariant: scheduledRetriesOff,
    on: scenario("single-region-staging"),
    breakIt: (c) => {
      invokeConfig(c, "StandbyReconcile").inputs.qualifier = "1";
    },
    expectViolation: /standby: Reconcile's event invoke config is on 1, not what the schedule invokes/,
  },
  {
    what: "the sweeps' queued pass dropped before its period (a throttled pass is lost)",
    invariant: scheduledRetriesOff,
    on: scenario("home-dev"),
    breakIt: (c) => {
      invokeConfig(c, "PrimarySweeps").inputs.maximumEventAgeInSeconds = 60;
    },
    expectViolation: /primary: Sweeps keeps a queued pass 60 s \(its period is 300 s\)/,
  },
];
