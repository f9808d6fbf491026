import { execFile } from "node:child_process";
import { createCipheriv, randomBytes } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import {
  ConfigError,
  claimModeOf,
  loadConfig,
  loadTunables,
  pspSecret,
  REQUIRED_ENV,
  regionRoleOf,
  withInvocationLinks,
} from "../src/config/config";

/** A complete handler environment, as the stacks and the local runtime set it. */
const COMPLETE: NodeJS.ProcessEnv = {
  AWS_REGION: "us-east-1",
  REGION_ROLE: "standby",
  CONTROL_TABLE: "control-t",
  CLAIM_MODE: "mrsc",
  CLAIM_TABLE: "claims-t",
  LEDGER_TABLE: "ledger-t",
  CONSUMER_TABLE: "consumer-t",
  EVENTS_QUEUE_URL: "https://sqs.us-east-1.amazonaws.com/123456789012/events.fifo",
  PSP_URL: "https://psp.example.com",
};
const without = (name: string): NodeJS.ProcessEnv => {
  const env = { ...COMPLETE };
  delete env[name];
  return env;
};
// Values an operator could plausibly type that are none of the allowed ones.
const ODD = ["", " true", "TRUE", "True", "yes", "1", "0", "on", "false ", "undefined"];

describe("a safety switch accepts only its allowed values", () => {
  it("REGION_ROLE: primary or standby; CLAIM_MODE: home or mrsc", () => {
    // act / assess
    expect(regionRoleOf({ REGION_ROLE: "standby" })).toBe("standby");
    expect(regionRoleOf({ REGION_ROLE: "primary" })).toBe("primary");
    expect(claimModeOf({ CLAIM_MODE: "home" })).toBe("home");
    expect(claimModeOf({ CLAIM_MODE: "mrsc" })).toBe("mrsc");
    for (const raw of [undefined, "Standby", "secondary", "stand-by", ...ODD]) {
      expect(() => regionRoleOf({ REGION_ROLE: raw }), `REGION_ROLE=${raw}`).toThrow(
        /REGION_ROLE must be "primary" or "standby"/,
      );
    }
    for (const raw of [undefined, "MRSC", "global", ...ODD]) {
      expect(() => claimModeOf({ CLAIM_MODE: raw }), `CLAIM_MODE=${raw}`).toThrow(
        /CLAIM_MODE must be "home" or "mrsc"/,
      );
    }
  });
});

describe("loadConfig refuses to start on a missing or odd environment", () => {
  it("reads a complete environment as written", () => {
    // act
    const c = loadConfig(COMPLETE);
    // assess
    expect(c).toMatchObject({
      region: "us-east-1",
      regionRole: "standby",
      controlTable: "control-t",
      claimMode: "mrsc",
      claimTable: "claims-t",
      ledgerTable: "ledger-t",
      consumerTable: "consumer-t",
    });
  });

  it.each(REQUIRED_ENV.map((name) => [name]))("without %s: a ConfigError that names it", (name) => {
    expect(() => loadConfig(without(name))).toThrow(ConfigError);
    expect(() => loadConfig(without(name))).toThrow(name);
  });

  it("with a switch set to an odd value: a ConfigError, never the active or primary default", () => {
    for (const [name, raw] of [
      ["REGION_ROLE", "secondary"],
      ["CLAIM_MODE", "Home"],
    ] as const) {
      expect(() => loadConfig({ ...COMPLETE, [name]: raw }), `${name}=${raw}`).toThrow(
        new RegExp(`${name} must be .*got "${raw}"`),
      );
    }
  });

  it("keeps the shipped defaults for the tunables only, and refuses a tunable that is not a positive number", () => {
    // act
    const shipped = loadTunables({});
    // assess
    expect(shipped).toMatchObject({ deadlineMs: 5_000, keyWindowS: 3_600, resolverRatePerS: 10 });
    expect(() => loadTunables({ DEADLINE_MS: "5s" })).toThrow(ConfigError);
    expect(() => loadTunables({ DEADLINE_MS: "-1" })).toThrow(/DEADLINE_MS=-1/);
  });
});

describe("the PSP secrets are read on use, from the link or the local variable", () => {
  it("a function without them starts; reading one throws a ConfigError naming the link and the variable", () => {
    // prepare
    const config = loadConfig(COMPLETE);
    // act / assess
    expect(() => config.pspApiKey).toThrow(
      /PspApiKey is not linked to this function and PSP_API_KEY is not set/,
    );
    expect(() => config.pspWebhookSecret).toThrow(/PspWebhookSecret .* PSP_WEBHOOK_SECRET/);
  });

  it("locally from PSP_API_KEY / PSP_WEBHOOK_SECRET", () => {
    // act
    const config = loadConfig({ ...COMPLETE, PSP_API_KEY: "sk_local", PSP_WEBHOOK_SECRET: "whsec_local" });
    // assess
    expect(config.pspApiKey).toBe("sk_local");
    expect(config.pspWebhookSecret).toBe("whsec_local");
  });

  it("the linked SST secret wins over a plain variable", () => {
    const linked = { PspApiKey: { value: "sk_linked" } };
    expect(pspSecret("apiKey", { PSP_API_KEY: "sk_env" }, linked)).toBe("sk_linked");
    expect(() => pspSecret("webhookSecret", {}, linked)).toThrow(ConfigError);
  });

  it("inside a local invocation, only its links count: the plain variable is not a way around a missing link", () => {
    // prepare: the variable set, as in the local stack's process; one invocation linked, one not
    const env = { ...COMPLETE, PSP_API_KEY: "sk_process" };
    // act
    const linked = withInvocationLinks(
      { PspApiKey: { value: "sk_linked" } },
      () => loadConfig(env).pspApiKey,
    );
    const unlinked = () => withInvocationLinks({}, () => loadConfig(env).pspApiKey);
    // assess
    expect(linked).toBe("sk_linked");
    expect(unlinked).toThrow(ConfigError);
    expect(unlinked).toThrow(/PspApiKey is not linked to this function \(its entry in stacks\/handlers\.ts/);
    expect(loadConfig(env).pspApiKey).toBe("sk_process");
  });

  it("through SST's own Resource, from an SST_RESOURCE_* variable", async () => {
    // act
    const read = await readInFreshProcess({
      SST_RESOURCE_App: JSON.stringify({ name: "effectively-once", stage: "test" }),
      SST_RESOURCE_PspApiKey: JSON.stringify({ type: "sst.sst.Secret", value: "sk_from_link" }),
    });
    // assess
    expect(read.apiKey).toBe("sk_from_link");
    expect(read.webhookSecret).toMatch(/^ConfigError: the PSP secret PspWebhookSecret is not linked/);
  });

  it("through SST's own Resource, from the encrypted link file a deployed function carries (SST_KEY_FILE)", async () => {
    // prepare: what the SST CLI writes into the bundle (AES-256-GCM, zero nonce, tag last) and sets SST_KEY to
    const key = randomBytes(32);
    const cipher = createCipheriv("aes-256-gcm", key, Buffer.alloc(12, 0));
    const links = { PspWebhookSecret: { type: "sst.sst.Secret", value: "whsec_from_link" } };
    const sealed = Buffer.concat([cipher.update(JSON.stringify(links)), cipher.final(), cipher.getAuthTag()]);
    const file = join(mkdtempSync(join(tmpdir(), "eo-links-")), "resource.enc");
    writeFileSync(file, sealed);
    // act
    const read = await readInFreshProcess({ SST_KEY: key.toString("base64"), SST_KEY_FILE: file });
    // assess
    expect(read.webhookSecret).toBe("whsec_from_link");
    expect(read.apiKey).toMatch(/^ConfigError: the PSP secret PspApiKey is not linked/);
  });
});

/** Both PSP secrets as read by a new process with only `env` (SST's Resource loads once per process). */
async function readInFreshProcess(
  env: Record<string, string>,
): Promise<{ apiKey: string; webhookSecret: string }> {
  const script = [
    'import { pspSecret } from "./packages/core/src/config/config.ts";',
    'const read = (n) => { try { return pspSecret(n); } catch (e) { return e.name + ": " + e.message; } };',
    'console.log(JSON.stringify({ apiKey: read("apiKey"), webhookSecret: read("webhookSecret") }));',
  ].join("\n");
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { env: { PATH: process.env.PATH, ...env }, cwd: process.cwd() },
  );
  return JSON.parse(stdout) as { apiKey: string; webhookSecret: string };
}
