import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { mintToken } from "../../packages/local/src/runtime/jwt";
import { loadSettings } from "../../scripts/lib/load/load-settings";
import type { PhoneRecord } from "../../scripts/lib/load/phone";
import type { ListedCharge } from "../../scripts/lib/load/psp-charge-list";
import { checkRemoteInvariants } from "../../scripts/lib/load/remote-invariants";
import { chargesBefore, observeRemote, type RemoteObserved } from "../../scripts/lib/load/remote-observe";
import type { LoadReport } from "../../scripts/lib/load/report-types";
import { planStageRun, splitStageArgs } from "../../scripts/lib/load/stage-target";
import { fakeStage } from "../support/fake-stage";
import { useLocalStack } from "../support/local-stack";

// `npm run load -- --stage <s>` against an outputs file whose API and PSP are the local stack's, each behind a proxy
// that records every request: the run must reach nothing but the stage's API and the PSP's records, never /_local.
const stack = useLocalStack();
const dir = mkdtempSync(join(tmpdir(), "eo-stage-load-"));
let stage: Awaited<ReturnType<typeof fakeStage>>;
let outputs: string;
let tokenFile: string;
let token: string;
const seen: string[] = [];
const proxies: Server[] = [];

/** A loopback proxy to `target` that records `label path` of every request. */
async function recordingProxy(label: string, target: string): Promise<string> {
  const server = createServer(async (req, res) => {
    seen.push(`${label} ${req.method} ${req.url}`);
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = Object.fromEntries(
      Object.entries(req.headers).filter(([k]) => !["host", "connection", "content-length"].includes(k)),
    ) as Record<string, string>;
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body });
    res.writeHead(answer.status, Object.fromEntries(answer.headers));
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((ready) => server.listen(0, "127.0.0.1", ready));
  proxies.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

beforeAll(async () => {
  stage = await fakeStage(stack());
  const apiProxy = await recordingProxy("api", stack().apiUrl);
  const pspProxy = await recordingProxy("psp", stack().psp.url);
  const failover = JSON.parse(readFileSync(stage.file, "utf8")).failover;
  outputs = join(dir, "outputs.json");
  writeFileSync(outputs, JSON.stringify({ primaryApi: apiProxy, standbyApi: apiProxy, failover }));
  token = await mintToken("u-stage-load", { expiresInS: 3_600 });
  tokenFile = join(dir, "token");
  writeFileSync(tokenFile, token);
  stage.env.SST_RESOURCE_PspUrl = JSON.stringify({ type: "sst.sst.Secret", value: pspProxy });
}, 60_000);
afterAll(async () => {
  for (const p of proxies) await new Promise((done) => p.close(done));
  await stage?.stop();
});

function runLoadScript(args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number; out: string; stdout: string }>((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/load.ts", ...args],
      { env: { ...process.env, ...env }, timeout: 150_000, maxBuffer: 20_000_000 },
      (err, stdout, stderr) =>
        resolve({ code: err ? Number(err.code ?? 1) : 0, out: `${stdout}${stderr}`, stdout: String(stdout) }),
    );
  });
}

describe("npm run load --stage, against an outputs file that points at the local stack", () => {
  it("a short run passes, judged from the public API and the PSP's records, and reaches nothing else", async () => {
    // prepare
    const args = ["--stage", "test", "--outputs", outputs, "--token-file", tokenFile];
    const load = [
      "--rate",
      "2",
      "--duration",
      "3",
      "--callers",
      "4",
      "--merchants",
      "2",
      "--declines",
      "0.2",
    ];
    // act
    const run = await runLoadScript([...args, ...load, "--report", join(dir, "r"), "--json"], stage.env);
    // assess
    expect(run.code, run.out).toBe(0);
    const report = JSON.parse(run.stdout) as LoadReport;
    expect(report.invariants.map((i) => [i.name, i.ok])).toEqual([
      ["at most one PSP charge per payment and per order (PSP records)", true],
      ["every PSP charge has a SUCCEEDED payment naming it (PSP records + GET /payments/{id})", true],
      ["every SUCCEEDED payment is charged at the PSP", true],
      ["no payment left unknown; answers agree with GET /payments/{id}", true],
    ]);
    expect(Number(report.summary["PSP charges"])).toBeGreaterThan(0);
    expect(report.summary["not judged: every SUCCEEDED payment notified"]).toMatch(/\/_local\/devices/);
    expect(report.summary["not judged: every SUCCEEDED payment credited once"]).toMatch(/public API/);
    expect(run.out).not.toContain(token);
    expect(run.out).toContain(`caller token ${token.slice(0, 6)}…`);
    expect(seen.filter((s) => s.includes("/_local"))).toEqual([]);
    expect(seen.some((s) => s.startsWith("api POST /payments"))).toBe(true);
    expect(seen.some((s) => s.startsWith("psp GET /v1/charges?created"))).toBe(true);
    expect(stage.calls).toEqual([]);
  }, 180_000);
});

describe("npm run load --stage refuses before it sends anything", () => {
  const remote = join(dir, "remote.json");
  const remoteEnv = { PSP_URL: "https://api.stripe.example", PSP_API_KEY: "sk_test_x" };
  beforeAll(() => {
    const failover = JSON.parse(readFileSync(stage.file, "utf8")).failover;
    writeFileSync(
      remote,
      JSON.stringify({ primaryApi: "https://abc123.execute-api.us-east-1.amazonaws.com", failover }),
    );
  });
  const plan = (extra: string[]) => {
    const split = splitStageArgs(["--stage", "test", "--outputs", remote, "--token", token, ...extra]);
    if (!split.stage) throw new Error("no stage flags");
    return planStageRun(loadSettings(split.rest), split.stage, remoteEnv);
  };

  it("a non-loopback API without --confirm-remote: exit 2, and no request leaves the process", async () => {
    // prepare
    const fetchSpy = vi.spyOn(globalThis, "fetch");
    // act
    const refused = () => plan(["--rate", "2", "--duration", "3"]);
    const run = await runLoadScript(
      ["--stage", "test", "--outputs", remote, "--token", token, "--rate", "2", "--duration", "3"],
      remoteEnv,
    );
    // assess
    expect(refused).toThrow(/off this machine; add --confirm-remote .*nothing was sent/);
    // The local stack in this process may fetch on its own: only a request to the stage's hosts would be the run's.
    const sent = fetchSpy.mock.calls.map(([url]) => String(url)).filter((u) => /execute-api|stripe/.test(u));
    expect(sent).toEqual([]);
    fetchSpy.mockRestore();
    expect(run.code, run.out).toBe(2);
    expect(run.out).toMatch(/abc123\.execute-api.*and https:\/\/api\.stripe\.example, off this machine/);
    expect(run.out).not.toContain(token);
  }, 60_000);

  it("with --confirm-remote the same plan is accepted; a flag that needs /_local or a missing token is refused", () => {
    // prepare
    const base = ["--rate", "2", "--duration", "3", "--confirm-remote"];
    // act
    const accepted = plan(base);
    // assess
    expect(accepted.apiUrl).toBe("https://abc123.execute-api.us-east-1.amazonaws.com");
    expect(() => plan([...base, "--psp-outage", "1:1"])).toThrow(/--psp-outage act\(s\) through .*\/_local/);
    expect(() => splitStageArgs(["--token", token])).toThrow(/go with --stage/);
    const noToken = splitStageArgs(["--stage", "test", "--outputs", remote, "--confirm-remote"]);
    expect(() =>
      planStageRun(loadSettings(["--rate", "1", "--duration", "1"]), noToken.stage as never, remoteEnv),
    ).toThrow(/give the caller token once/);
  });
});

describe("the remote invariants break on purpose", () => {
  const phone = (id: string, order: string): PhoneRecord => ({
    caller: "c",
    order: {
      order_id: order,
      amount: 900,
      currency: "USD",
      payment_method: "pm_card_visa",
      merchant_id: "m",
    },
    intendedAt: 0,
    payment_id: id,
    payment_ids: new Set([id]),
    outcome: "succeeded",
    attempts: 1,
    statuses: ["201"],
  });
  const charge = (id: string, reference: string): ListedCharge => ({
    id,
    reference,
    amount: 900,
    currency: "USD",
    status: "succeeded",
    refunded: false,
    created: 1,
  });
  const clean = (): RemoteObserved => ({
    phones: [phone("pay_a", "o1")],
    charges: [charge("ch_1", "pay_a")],
    rows: new Map([["pay_a", { state: "SUCCEEDED", psp_charge: "ch_1", amount: 900 }]]),
    absent: new Set(),
    unread: new Set(),
  });
  const broken = (o: RemoteObserved) => checkRemoteInvariants(o).filter((i) => !i.ok);

  it("a payment charged twice in the PSP's records fails the one-charge invariant", () => {
    // prepare
    const o = clean();
    o.charges.push(charge("ch_2", "pay_a"));
    // act
    const bad = broken(o);
    // assess
    expect(broken(clean())).toEqual([]);
    expect(bad.map((i) => i.name)).toContain(
      "at most one PSP charge per payment and per order (PSP records)",
    );
    expect(bad[0]?.detail).toMatch(/pay_a charged 2 times/);
  });

  it("a PSP charge with no payment behind it, made at the stage's PSP directly, fails the charge-to-payment invariant", async () => {
    // prepare: a charge the API never made, at the same PSP the run reads
    const access = { apiUrl: stack().apiUrl, token, psp: { url: stack().psp.url, apiKey: "sk_local" } };
    const since = Math.floor(Date.now() / 1000) - 60;
    const before = await chargesBefore(access, since);
    const stray = `pay_${"f".repeat(32)}`;
    const res = await fetch(`${stack().psp.url}/v1/charges`, {
      method: "POST",
      headers: {
        authorization: "Bearer sk_local",
        "content-type": "application/json",
        "idempotency-key": `${stray}:charge`,
      },
      body: JSON.stringify({
        amount: 700,
        currency: "USD",
        payment_method: "pm_card_visa",
        reference: stray,
      }),
    });
    expect(res.status).toBe(200);
    // act
    const o = await observeRemote(access, [], before, since);
    const bad = broken(o);
    // assess
    expect(o.absent.has(stray)).toBe(true);
    expect(bad.map((i) => [i.name, i.detail])).toEqual([
      [
        "every PSP charge has a SUCCEEDED payment naming it (PSP records + GET /payments/{id})",
        expect.stringMatching(new RegExp(`\\(${stray}\\) has no payment`)),
      ],
    ]);
  }, 30_000);
});
