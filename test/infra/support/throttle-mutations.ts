/** Break-on-purpose cases for issue 41, item 4: throttles and headroom. */
import type { Capture } from "./capture";
import { type Mutation, resourceOf } from "./mutation";
import { SCENARIOS } from "./scenarios";
import { throttlesAndHeadroom } from "./throttle-invariant";

const scenario = (name: string) => {
  const found = SCENARIOS.find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};
const fn = (c: Capture, name: string) => resourceOf(c, "aws:lambda/function:Function", `${name}Function`);

export const THROTTLE_MUTATIONS: Mutation[] = [
  {
    what: "the standby's API stage without throttling (a burst invokes a function per request)",
    invariant: throttlesAndHeadroom,
    on: scenario("home-dev"),
    breakIt: (c) => {
      resourceOf(c, "aws:apigatewayv2/stage:Stage", "StandbyApiStage").inputs.defaultRouteSettings = {};
    },
    expectViolation: /standby: the API stage does not throttle its routes/,
  },
  {
    what: "the API throttled under twice the PSP's rate (buyers refused that the fair queue could serve)",
    invariant: throttlesAndHeadroom,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      resourceOf(c, "aws:apigatewayv2/stage:Stage", "PrimaryApiStage").inputs.defaultRouteSettings = {
        throttlingRateLimit: 50,
        throttlingBurstLimit: 100,
      };
    },
    expectViolation: /primary: the API stage throttles at 50\/s, under twice the PSP's 100\/s/,
  },
  {
    what: "the relay without reserved concurrency",
    invariant: throttlesAndHeadroom,
    on: scenario("home-dev"),
    breakIt: (c) => {
      delete fn(c, "PrimaryLedgerStream").inputs.reservedConcurrentExecutions;
    },
    expectViolation: /primary: LedgerStream has no reserved concurrency/,
  },
  {
    what: "the webhook uncapped",
    invariant: throttlesAndHeadroom,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      delete fn(c, "StandbyPspWebhook").inputs.reservedConcurrentExecutions;
    },
    expectViolation: /standby: PspWebhook is not capped/,
  },
  {
    what: "more reserved than a default account quota allows (the deploy fails)",
    invariant: throttlesAndHeadroom,
    on: scenario("home-dev"),
    breakIt: (c) => {
      fn(c, "PrimaryNotifyWorker").inputs.reservedConcurrentExecutions = 950;
    },
    expectViolation: /primary: \d+ reserved, over the 900 a default account quota can reserve/,
  },
];
