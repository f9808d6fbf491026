import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NO_TARGET } from "../../scripts/lib/target/target-args";
import { runScript } from "../support/run-script";

// Every operator script finds its target one way (--local or --stage) and refuses the same way, exit 2, before it
// touches anything, when it is told neither, both, or a target it cannot find. No stack runs here: nothing answers.
const SCRIPTS = [
  ["failover", ["--to", "standby", "--dry-run"]],
  ["reconcile", ["--since", "2026-12-01T00:00:00Z"]],
  ["resolve-unknowns", ["--dry-run"]],
  ["redrive-dlq", ["--dry-run"]],
] as const;

const dir = mkdtempSync(join(tmpdir(), "eo-targets-"));
const outputsFile = (name: string, outputs: unknown) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(outputs));
  return file;
};
const region = (role: string, region: string) => ({
  region,
  control: "control",
  claims: `${role}-claims`,
  ledger: "ledger",
  consumer: "consumer",
  eventsQueue: `https://sqs.${region}.amazonaws.com/1/${role}-events.fifo`,
  eventsDlq: `https://sqs.${region}.amazonaws.com/1/${role}-events-dlq.fifo`,
  resolver: `${role}-resolver`,
  sweeps: `${role}-sweeps`,
});
const staging = outputsFile("staging.json", {
  failover: {
    stage: "staging",
    claimMode: "home",
    primary: region("primary", "us-east-1"),
    standby: region("standby", "us-west-2"),
    authority: { table: "control", mode: "mrsc", regions: ["us-east-1", "us-west-2"], witness: "us-east-2" },
  },
});
// What a stage deployed before this version wrote: the failover output without the stage and the queues.
const older = outputsFile("older.json", {
  failover: {
    primary: { region: "us-east-1" },
    standby: {},
    authority: { table: "t", regions: ["us-east-1"] },
  },
});

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

const run = (script: string, args: readonly string[], env: NodeJS.ProcessEnv = {}) =>
  runScript(`scripts/${script}.ts`, [...args], {
    // An operator's shell may hold a Region and tables from another run: none of them may pick a target.
    AWS_REGION: "us-east-1",
    LEDGER_TABLE: "ledger",
    PSP_URL: undefined,
    PSP_API_KEY: undefined,
    ...env,
  });

describe.each(SCRIPTS)("npm run %s: where to act", (script, args) => {
  it("refuses with the same words and exit 2 when told neither --local nor --stage, or both", async () => {
    // act
    const [neither, both] = await Promise.all([
      run(script, args),
      run(script, [...args, "--local", "--stage", "staging"]),
    ]);
    // assess
    for (const r of [neither, both]) {
      expect(r.code, r.out).toBe(2);
      expect(r.out.split("\n")[0]).toBe(NO_TARGET);
    }
  });

  it("refuses a stage whose outputs are not at hand, are another stage's, or are older than this version", async () => {
    // act
    const [missing, other, stale] = await Promise.all([
      run(script, [...args, "--stage", "staging", "--outputs", join(dir, "none.json")]),
      run(script, [...args, "--stage", "production", "--outputs", staging]),
      run(script, [...args, "--stage", "staging", "--outputs", older]),
    ]);
    // assess
    expect(missing.code, missing.out).toBe(2);
    expect(missing.out).toMatch(/^refused: no outputs file .*none\.json \(`npx sst deploy --stage <stage>`/m);
    expect(other.code, other.out).toBe(2);
    expect(other.out).toMatch(
      /^refused: .*staging\.json holds the outputs of stage "staging", not "production"/m,
    );
    expect(stale.code, stale.out).toBe(2);
    expect(stale.out).toMatch(/^refused: .*older\.json has no failover\.stage \(deploy this version/m);
  });

  it("refuses --local when no local stack answers on its port", async () => {
    // prepare
    const port = await closedPort();
    // act
    const r = await run(script, [...args, "--local"], { API_PORT: String(port) });
    // assess
    expect(r.code, r.out).toBe(2);
    expect(r.out).toMatch(new RegExp(`^refused: no local stack answers on http://127.0.0.1:${port} `, "m"));
  });
});

describe.each([
  ["reconcile", SCRIPTS[1][1]],
  ["resolve-unknowns", SCRIPTS[2][1]],
] as const)("npm run %s -- --stage: the PSP's secrets", (script, args) => {
  it("refuses without them, saying where they come from; refuses `sst shell` of another stage", async () => {
    // act
    const [none, otherShell] = await Promise.all([
      run(script, [...args, "--stage", "staging", "--outputs", staging]),
      run(script, [...args, "--stage", "staging", "--outputs", staging], {
        SST_RESOURCE_App: JSON.stringify({ name: "effectively-once", stage: "production" }),
      }),
    ]);
    // assess
    expect(none.code, none.out).toBe(2);
    expect(none.out).toMatch(
      /^refused: the PSP's URL and API key are SST secrets \(PspUrl, PspApiKey\), never outputs: run this under `npx sst shell --stage staging -- …`, or set PSP_URL and PSP_API_KEY/m,
    );
    expect(otherShell.code, otherShell.out).toBe(2);
    expect(otherShell.out).toMatch(
      /^refused: this runs under `sst shell` for stage "production", not "staging"/m,
    );
  });
});
