import { describe, expect, it } from "vitest";
import { clock } from "../../packages/core/src/clock/clock";
import { authorityStore } from "../../packages/local/src/region/control-table";
import { regionHandlerEnv } from "../../packages/local/src/stack/handler-env";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { makeActive } from "../support/regions";
import { runScript } from "../support/run-script";
import { snapshotTables } from "../support/tables";

const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

/** Runs the on-call script as an operator would, with the handlers' environment (`--env`). */
const resolveUnknowns = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runScript("scripts/resolve-unknowns.ts", ["--env", ...args], env);

describe("the resolver script, run by hand", () => {
  it("lists in a dry run, then settles with progress and a summary; exit 0", async () => {
    // prepare: two payments whose replies were lost
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    await api().local("POST", "/faults", { psp_lose_reply: 2 });
    const a = await api().pay(token, newKey(), order42());
    const b = await api().pay(token, newKey(), order42());
    const pspCalls = stack().psp.requests();
    // act
    const dry = await resolveUnknowns(["--dry-run"]);
    const callsAfterDryRun = stack().psp.requests();
    const real = await resolveUnknowns([]);
    // assess
    expect(dry.code, dry.out).toBe(0);
    expect(dry.out).toContain(`would replay ${a.body.payment_id}`);
    expect(dry.out).toContain("nothing called, nothing changed");
    expect(callsAfterDryRun).toBe(pspCalls);
    expect(real.code, real.out).toBe(0);
    expect(real.out).toMatch(new RegExp(`${b.body.payment_id}\\s+UNKNOWN -> SUCCEEDED`));
    expect(real.out).toMatch(/summary: examined 2, settled 2, still unknown 0/);
  }, 90_000);

  it("refuses to run in a passive Region (the Region control names the other): exit 2", async () => {
    // prepare: the script runs with the standby's environment while the control names the primary
    const standbyEnv = regionHandlerEnv(stack().emulators, "standby", stack().psp.url);
    // act
    const passive = await resolveUnknowns([], standbyEnv);
    // assess
    expect(passive.code).toBe(2);
    expect(passive.out).toMatch(
      /this Region \(standby\) is passive: the primary Region is active \(epoch \d+\)/,
    );
  });

  it("refuses on a missing or odd switch, resource or PSP key: exit 2, nothing called, nothing changed", async () => {
    // prepare: a payment whose reply was lost, which any run that acts would settle
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    await api().local("POST", "/faults", { psp_lose_reply: 1 });
    const lost = await api().pay(token, newKey(), order42());
    const before = await snapshotTables(stack());
    const pspCalls = stack().psp.requests();
    // act
    const runs = [];
    for (const [env, message] of REFUSED_ENVIRONMENTS)
      runs.push({ env, message, run: await resolveUnknowns([], env) });
    // assess
    for (const { env, message, run } of runs) {
      const what = Object.entries(env).map(([k, v]) => (v === undefined ? `${k} unset` : `${k}="${v}"`));
      expect(run.code, `${what.join(", ")}: ${run.out}`).toBe(2);
      expect(run.out).toMatch(message);
      expect(run.out).toMatch(/^refused: /m);
    }
    expect(stack().psp.requests()).toBe(pspCalls);
    expect(await snapshotTables(stack())).toEqual(before);
    expect((await api().get(token, String(lost.body.payment_id))).body.state).not.toBe("SUCCEEDED");
    // leave nothing unsettled for the next test
    expect((await resolveUnknowns([])).code).toBe(0);
  }, 90_000);
});

/** Two payments whose replies were lost, for a run to settle. */
async function twoLostReplies(): Promise<string[]> {
  stack().psp.setWebhookUrl(undefined);
  const token = await api().token("u-bound");
  await api().local("POST", "/faults", { psp_lose_reply: 2 });
  const paid = [await api().pay(token, newKey(), order42()), await api().pay(token, newKey(), order42())];
  return paid.map((p) => String(p.body.payment_id));
}

describe("the resolver script re-checks before each PSP call and stops at its time bound (issue 40)", () => {
  it("calls the PSP for no row past --max-seconds: exit 1, the rows left for the next run", async () => {
    // prepare
    const ids = await twoLostReplies();
    const pspCalls = stack().psp.requests();
    // act: a bound already past, as for a laptop that slept between its check and its first row
    const run = await resolveUnknowns(["--max-seconds", "0"]);
    // assess
    expect(run.code, run.out).toBe(1);
    expect(run.out).toMatch(/summary: examined 0, .*stopped at its time bound/);
    expect(stack().psp.requests()).toBe(pspCalls);
    for (const id of ids) expect(run.out).not.toContain(`${id}  UNKNOWN ->`);
    expect((await resolveUnknowns([])).code).toBe(0); // leave nothing unsettled for the next test
  }, 90_000);

  it("refuses while the authority names its Region but not yet (active_from ahead): exit 2, nothing called", async () => {
    // prepare: a failover named this Region; it acts only after the act window
    await twoLostReplies();
    const pspCalls = stack().psp.requests();
    await activeFromAhead();
    // act
    const early = await resolveUnknowns([]);
    const callsAfterEarly = stack().psp.requests();
    await makeActive(stack(), "primary", "test: the act window passed");
    // assess
    expect(early.code, early.out).toBe(2);
    expect(early.out).toMatch(/this Region \(primary\) is passive: it takes over at /);
    expect(callsAfterEarly).toBe(pspCalls);
    expect((await resolveUnknowns([])).code).toBe(0); // leave nothing unsettled for the next test
  }, 90_000);

  it("counterfactual: a run that checks once replays every row past its bound", async () => {
    // prepare
    const ids = await twoLostReplies();
    // act
    const run = await resolveUnknowns(["--max-seconds", "0"], {
      EO_TEST_UNSAFE_OPERATOR_RESOLVER_CHECKS_ONCE: "1",
    });
    // assess: both rows replayed at the PSP after the bound
    expect(run.code, run.out).toBe(0);
    for (const id of ids) expect(run.out).toMatch(new RegExp(`${id}\\s+UNKNOWN -> SUCCEEDED`));
  }, 90_000);
});

/** Environments the script must refuse (undefined removes a variable), with what it must say. */
const REFUSED_ENVIRONMENTS: Array<[NodeJS.ProcessEnv, RegExp]> = [
  [{ REGION_ROLE: undefined }, /REGION_ROLE must be "primary" or "standby" \(it is not set\)/],
  [{ CONTROL_TABLE: undefined }, /CONTROL_TABLE is not set/],
  [{ REGION_ROLE: "secondary" }, /REGION_ROLE must be "primary" or "standby" \(got "secondary"\)/],
  [{ CLAIM_MODE: undefined }, /CLAIM_MODE must be "home" or "mrsc" \(it is not set\)/],
  [
    { AWS_REGION: undefined, CLAIM_TABLE: undefined, LEDGER_TABLE: undefined },
    /AWS_REGION, CLAIM_TABLE, LEDGER_TABLE are not set/,
  ],
  [{ PSP_API_KEY: undefined }, /PspApiKey is not linked to this function and PSP_API_KEY is not set/],
];

/** The authority names the primary under a new epoch from a minute ahead, as a failover's act window does. */
async function activeFromAhead(): Promise<void> {
  const authority = await authorityStore(stack().emulators).read();
  const epoch = (authority?.epoch ?? 0) + 1;
  const next = { active: "primary" as const, epoch, updated_at: Date.now(), reason: "test: failover" };
  // On the stack's clock, which the gates compare `active_from` with.
  await authorityStore(stack().emulators).write({ ...next, active_from: clock.now() + 60_000 });
}
