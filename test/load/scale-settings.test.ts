import { describe, expect, it } from "vitest";
import { loadSettings, UsageError } from "../../scripts/lib/load/load-settings";
import { scaledCaps } from "../../scripts/lib/load/scale-settings";
import { stackEnv } from "../../scripts/lib/load/stack-process";

const base = ["--rate", "8", "--duration", "30"];

describe("--scale divides Stripe's caps and leaves a request of headroom", () => {
  it("at 5 gives the PSP 20:5 and our budget 16/s account, 4/s endpoint (not 4.4), 2/s resolver", () => {
    // act
    const caps = scaledCaps(5);
    // assess
    expect(caps).toEqual({
      pspAccountLimit: 20,
      pspEndpointLimit: 5,
      budget: { accountPerS: 16, endpointPerS: 4, resolverPerS: 2 },
    });
  });

  it.each([1, 2, 3, 5, 7, 10, 12])("at %d keeps ceil(budget) at least one below each limit", (k) => {
    // act
    const { pspAccountLimit, pspEndpointLimit, budget } = scaledCaps(k);
    // assess
    expect(Math.ceil(budget.endpointPerS)).toBeLessThanOrEqual(Math.ceil(pspEndpointLimit) - 1);
    expect(Math.ceil(budget.accountPerS)).toBeLessThanOrEqual(Math.ceil(pspAccountLimit) - 1);
    expect(budget.endpointPerS).toBeGreaterThan(0);
    expect(budget.resolverPerS).toBeLessThanOrEqual(budget.endpointPerS);
  });

  it("sets the limits and the budget in the started stack's environment, and passes the rest through", () => {
    // prepare
    const s = loadSettings([...base, "--scale", "5"], {});
    // act
    const env = stackEnv(s, "/tmp/ready.json");
    // assess
    expect(env).toMatchObject({
      FAKE_PSP_ACCOUNT_LIMIT_PER_S: "20",
      FAKE_PSP_ENDPOINT_LIMIT_PER_S: "5",
      PSP_RATE_PER_S: "16",
      PSP_ENDPOINT_RATE_PER_S: "4",
      RESOLVER_RATE_PER_S: "2",
    });
    expect(s.endpointBudgetPerS).toBe(4);
    expect(env.PATH).toBe(process.env.PATH);
  });

  it("passes the test-only fairness switch of this process through to the started stack", () => {
    // prepare
    const s = loadSettings([...base, "--scale", "5"], {});
    const before = process.env.EO_TEST_UNSAFE_NO_FAIR_QUEUE;
    process.env.EO_TEST_UNSAFE_NO_FAIR_QUEUE = "1";
    try {
      // act
      const env = stackEnv(s, "/tmp/ready.json");
      // assess
      expect(env.EO_TEST_UNSAFE_NO_FAIR_QUEUE).toBe("1");
    } finally {
      if (before === undefined) delete process.env.EO_TEST_UNSAFE_NO_FAIR_QUEUE;
      else process.env.EO_TEST_UNSAFE_NO_FAIR_QUEUE = before;
    }
  });

  it.each([
    [["--scale", "5", "--psp-limit", "20:5"], /drop --psp-limit/],
    [["--scale", "5", "--lift-caps"], /drop --lift-caps/],
    [["--scale", "5", "--url", "http://127.0.0.1:3000"], /drop --url/],
    [["--scale", "13"], /--scale must be from 1 to 12/],
  ])("refuses %j", (args, why) => {
    // act / assess
    expect(() => loadSettings([...base, ...args], {})).toThrow(why);
  });
});

describe("the generator refuses a budget without headroom when it starts the stack", () => {
  it("refuses PSP_ENDPOINT_RATE_PER_S=4.4 against --psp-limit 20:5, with the reason", () => {
    // act
    const run = () => loadSettings([...base, "--psp-limit", "20:5"], { PSP_ENDPOINT_RATE_PER_S: "4.4" });
    // assess
    expect(run).toThrow(UsageError);
    expect(run).toThrow(/no headroom.*ceil\(budget\) must be at most 4/);
  });

  it("accepts 4 against 5, the default 22 against 25, and any budget for --url or --lift-caps", () => {
    // act
    const four = loadSettings([...base, "--psp-limit", "20:5"], { PSP_ENDPOINT_RATE_PER_S: "4" });
    const defaults = loadSettings(base, {});
    const url = loadSettings([...base, "--url", "http://127.0.0.1:3000", "--psp-limit", "20:5"], {
      PSP_ENDPOINT_RATE_PER_S: "5",
    });
    const lifted = loadSettings([...base, "--lift-caps"], { PSP_ENDPOINT_RATE_PER_S: "30" });
    // assess
    expect(four.endpointBudgetPerS).toBe(4);
    expect(defaults.endpointBudgetPerS).toBe(22);
    expect(url.endpointBudgetPerS).toBe(5);
    expect(lifted.endpointBudgetPerS).toBe(1_000_000);
  });

  it("refuses the default 22 against an endpoint limit of 22", () => {
    // act / assess
    expect(() => loadSettings([...base, "--psp-limit", "100:22"], {})).toThrow(/headroom/);
  });
});

describe("--horizon", () => {
  it("sets the phones' client horizon, 45 s unless given", () => {
    // act
    const given = loadSettings([...base, "--horizon", "60"], {});
    const unset = loadSettings(base, {});
    // assess
    expect(given.phoneHorizonMs).toBe(60_000);
    expect(unset.phoneHorizonMs).toBe(45_000);
  });
});
