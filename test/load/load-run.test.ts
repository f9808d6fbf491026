import { describe, expect, it } from "vitest";
import { loadSettings } from "../../scripts/lib/load/load-settings";
import { runLoad } from "../../scripts/lib/load/run-load";
import { useLocalStack } from "../support/local-stack";
import { runScript } from "../support/run-script";

// A bounded sample of `npm run load`: the long runs are the command and `npm run bench:load`.
// The resolver runs every 2 s here (each minute in AWS), so that the sample's outage drains within the test.
const stack = useLocalStack({ webhookDelayMs: 500, resolverEveryMs: 2_000 });
const quiet = () => undefined;
const settingsFor = (args: string[]) =>
  loadSettings(["--url", stack().apiUrl, "--callers", "12", "--merchants", "4", ...args]);

describe("npm run load, a bounded sample", () => {
  it("offers 5/s for 6 s with the PSP out from second 2 for 2 s: every invariant holds after the stack quiesces", async () => {
    // prepare
    const s = {
      ...settingsFor(["--rate", "5", "--duration", "6", "--psp-outage", "2:2", "--declines", "0.1"]),
      // A phone keeps asking this long: on a loaded 2-core machine the outage's backlog can take longer than 15 s.
      phoneHorizonMs: 30_000,
    };
    // act
    const report = await runLoad(s, quiet);
    // assess
    expect(report.invariants.map((i) => [i.name, i.ok, i.detail])).toEqual(
      report.invariants.map((i) => [i.name, true, i.detail]),
    );
    expect(report.ok).toBe(true);
    expect(report.seconds.length).toBeGreaterThanOrEqual(6);
    expect(report.summary["arrivals offered"]).toBeGreaterThan(10);
    expect(report.summary["429s at the PSP"]).toBe(0);
    expect(report.latency.first_answer.count).toBe(report.summary["arrivals offered"]);
    expect(report.latency.tap_to_notification.count).toBeGreaterThan(0);
  }, 240_000);

  it("with phones that make a new key per retry (guard off), the check finds the second charge and the run fails", async () => {
    // prepare: every reply lost, so every phone retries; a new key per retry is a new payment
    const s = {
      ...settingsFor(["--rate", "2", "--duration", "3", "--lose-reply-rate", "1", "--declines", "0"]),
      unsafeNewKeyPerRetry: true,
      phoneHorizonMs: 6_000,
      quietWithinMs: 20_000,
    };
    // act
    const report = await runLoad(s, quiet);
    // assess
    const oneCharge = report.invariants.find((i) => i.name.startsWith("at most one charge"));
    expect(oneCharge?.ok).toBe(false);
    expect(oneCharge?.detail).toMatch(/charged [2-9] times/);
    expect(report.ok).toBe(false);
  }, 240_000);
});

describe("npm run load refuses", () => {
  it.each([
    [["--rate", "40", "--duration", "30", "--url", "http://10.0.0.7:3000"], /loopback/],
    [["--rate", "40", "--duration", "30", "--url", "https://example.com"], /loopback/],
    [["--rate", "0", "--duration", "30"], /--rate must be from/],
    [["--rate", "40", "--duration", "9000"], /--duration must be from 1 to 600/],
    [["--rate", "40", "--ramp", "10:60", "--duration", "30"], /not both/],
    [["--rate", "40", "--duration", "30", "--psp-outage", "25:10"], /end within --duration/],
    [["--rate", "40", "--duration", "30", "--lose-reply-rate", "2"], /--lose-reply-rate must be from 0 to 1/],
    [["--rate", "8", "--duration", "30", "--psp-limit", "20:5"], /leaves no headroom/],
    [["--rate", "8", "--duration", "30", "--scale", "5", "--lift-caps"], /drop --lift-caps/],
  ])(
    "%j with exit 2 and the reason, sending nothing",
    async (args, why) => {
      // act
      const run = await runScript("scripts/load.ts", args);
      // assess
      expect(run.code).toBe(2);
      expect(run.out).toMatch(why);
      expect(run.out).toMatch(/usage: npm run load/);
    },
    30_000,
  );
});
