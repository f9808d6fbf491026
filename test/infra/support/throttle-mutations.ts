/** Break-on-purpose cases for issue 41, item 4: throttles and headroom. */
import type { Capture, JsonObject } from "./capture";
import { type Mutation, resourceOf } from "./mutation";
import { SCENARIOS } from "./scenarios";
import { throttlesAndHeadroom } from "./throttle-invariant";

const scenario = (name: string) => {
  const found = SCENARIOS.find((s) => s.scenario.name === name);
  if (!found) throw new Error(`no scenario ${name}`);
  return found;
};
const fn = (c: Capture, name: string) => resourceOf(c, "aws:lambda/function:Function", `${name}Function`);
const stage = (c: Capture, name: string) => resourceOf(c, "aws:apigatewayv2/stage:Stage", `${name}ApiStage`);
const routeSettings = (c: Capture, name: string) => stage(c, name).inputs.routeSettings as JsonObject[];
const settingOf = (c: Capture, name: string, routeKey: string) => {
  const found = routeSettings(c, name).find((s) => s.routeKey === routeKey);
  if (!found) throw new Error(`no setting for ${routeKey} on ${name}ApiStage`);
  return found;
};

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
    what: "a webhook route without its own throttle (a flood of unsigned calls invokes it at the stage's 400/s)",
    invariant: throttlesAndHeadroom,
    on: scenario("home-dev"),
    breakIt: (c) => {
      const s = stage(c, "Standby");
      s.inputs.routeSettings = routeSettings(c, "Standby").filter(
        (x) => x.routeKey !== "POST /webhooks/stripe",
      );
    },
    expectViolation: /standby: POST \/webhooks\/stripe has no throttle of its own on the API stage/,
  },
  {
    what: "a stage setting for a route key the API does not have (UpdateStage: Unable to find Route by key)",
    invariant: throttlesAndHeadroom,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      routeSettings(c, "Primary").push({
        routeKey: "POST /webhooks/adyen",
        throttlingRateLimit: 80,
        throttlingBurstLimit: 20,
      });
    },
    expectViolation:
      /primary: the API stage sets a throttle for POST \/webhooks\/adyen, not a route of its API/,
  },
  {
    what: "the stage not waiting for its throttled routes (created first, API Gateway refuses the setting)",
    invariant: throttlesAndHeadroom,
    on: scenario("home-dev"),
    breakIt: (c) => {
      stage(c, "Primary").opts.dependsOn = [];
    },
    expectViolation: /primary: the API stage does not wait for the route POST \/webhooks\/psp/,
  },
  {
    what: "a webhook route allowed more than its function's cap can run (a Lambda throttle behind the edge)",
    invariant: throttlesAndHeadroom,
    on: scenario("mrsc-production"),
    breakIt: (c) => {
      Object.assign(settingOf(c, "Standby", "POST /webhooks/psp"), {
        throttlingRateLimit: 120,
        throttlingBurstLimit: 60,
      });
    },
    expectViolation:
      /standby: the open route POST \/webhooks\/psp at 120\/s needs 30 concurrent calls of 0\.25 s, over its function's cap of 20/,
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
