import { afterEach, describe, expect, it, vi } from "vitest";
import { readConfig } from "../../stacks/config";
import { productionLookalike, stageIsProduction } from "../../stacks/stage-kind";

// What a first `sst deploy` must be told, refused before anything is created: the stage's kind when its name looks
// like production, the SES sender, and who the on-call topics page. The resources each choice makes are checked
// under Pulumi mocks (sst-mocks.test.ts: protection, pushAndEmail, onCallAlarms).
const BASE = { JWT_ISSUER: "https://auth.example.com/", EMAIL_SENDER: "receipts@pay.example.net" };
const ONCALL = { ONCALL_EMAIL: "oncall@example.net" };
const SST_CONFIG = new URL("../../sst.config.ts", import.meta.url).href;

/** `app()` of sst.config.ts as the CLI evaluates it (its `$config` global stubbed), for a stage and an environment. */
async function appOf(stage: string, env: Record<string, string>) {
  vi.stubGlobal("$config", (config: unknown) => config);
  for (const [k, v] of Object.entries(env)) vi.stubEnv(k, v);
  // By URL: a static specifier would pull SST's platform types (sst.config.ts references them) into this tsconfig.
  const mod = (await import(/* @vite-ignore */ SST_CONFIG)) as {
    default: { app(input: { stage: string }): Promise<{ removal: string; protect: boolean }> };
  };
  return mod.default.app({ stage });
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe("the stage rule: `production`, or a stated kind; a look-alike name must state it", () => {
  it.each(["prod", "prd", "live", "production-eu", "eu-prod", "prod2", "PROD", "pre-prod", "go_live"])(
    "%s looks like production",
    (stage) => {
      expect(productionLookalike(stage)).toBeDefined();
    },
  );

  it.each(["dev", "staging", "preprod", "products", "olive", "alive", "reproduce", "production"])(
    "%s does not look like production (whole words only; `production` is production)",
    (stage) => {
      expect(productionLookalike(stage)).toBeUndefined();
    },
  );

  it("refuses a look-alike without STAGE_KIND, naming the rule and both ways out", () => {
    const refuse = () => readConfig("prod", BASE);
    expect(refuse).toThrow(
      /The stage "prod" looks like production \(the word "prod"\) but is not named "production"/,
    );
    expect(refuse).toThrow(/Set STAGE_KIND=production .* or STAGE_KIND=non-production/);
  });

  it("a stated production look-alike gets what `production` gets: APNs production, retain, protect", async () => {
    // act
    const config = readConfig("prod", { ...BASE, ...ONCALL, STAGE_KIND: "production" });
    const app = await appOf("prod", { ...BASE, ...ONCALL, STAGE_KIND: "production" });
    // assess
    expect(config.production).toBe(true);
    expect(config.apnsPlatform).toBe("APNS");
    expect(app).toMatchObject({ removal: "retain", protect: true });
  });

  it("a stated non-production look-alike is a removable stage with the APNs sandbox", async () => {
    const config = readConfig("live", { ...BASE, STAGE_KIND: "non-production" });
    const app = await appOf("live", { ...BASE, STAGE_KIND: "non-production" });
    expect(config.production).toBe(false);
    expect(config.apnsPlatform).toBe("APNS_SANDBOX");
    expect(app).toMatchObject({ removal: "remove", protect: false });
  });

  it("app() refuses a look-alike too, so `sst remove --stage prod` cannot run as a development stage", async () => {
    await expect(appOf("prod", BASE)).rejects.toThrow(/looks like production/);
  });

  it("`production` is always production; STAGE_KIND cannot make it anything else", async () => {
    expect(stageIsProduction("production", {})).toBe(true);
    expect(await appOf("production", { ...BASE, ...ONCALL })).toMatchObject({
      removal: "retain",
      protect: true,
    });
    expect(() => stageIsProduction("production", { STAGE_KIND: "non-production" })).toThrow(
      /always production/,
    );
  });

  it("any stage may be stated production; an odd STAGE_KIND is refused", () => {
    expect(readConfig("acme", { ...BASE, ...ONCALL, STAGE_KIND: "production" }).production).toBe(true);
    expect(readConfig("dev", BASE).production).toBe(false);
    expect(() => readConfig("dev", { ...BASE, STAGE_KIND: "prod" })).toThrow(
      /STAGE_KIND must be "production" or "non-production", not "prod"/,
    );
  });

  it("refuses the APNs sandbox on a production stage (production device tokens would be rejected)", () => {
    const env = { ...BASE, ...ONCALL, APNS_PLATFORM: "APNS_SANDBOX" };
    expect(() => readConfig("production", env)).toThrow(/APNS_PLATFORM=APNS_SANDBOX on a production stage/);
    expect(readConfig("dev", env).apnsPlatform).toBe("APNS_SANDBOX");
  });
});

describe("EMAIL_SENDER is required, like JWT_ISSUER", () => {
  it("refuses a deploy without it, saying what it must be", () => {
    expect(() => readConfig("dev", { JWT_ISSUER: BASE.JWT_ISSUER })).toThrow(
      /Set EMAIL_SENDER to the address or domain receipts are sent from: an SES identity you verify in both Regions/,
    );
  });

  it.each(["receipts", "receipts@", "@example.net", "not a domain", "receipts@pay example.net"])(
    "refuses EMAIL_SENDER=%j",
    (sender) => {
      expect(() => readConfig("dev", { ...BASE, EMAIL_SENDER: sender })).toThrow(
        /neither an email address nor a domain/,
      );
    },
  );

  it("takes an address as it is, and a domain as receipts@<domain>", () => {
    expect(readConfig("dev", BASE)).toMatchObject({
      emailSender: "receipts@pay.example.net",
      emailFrom: "receipts@pay.example.net",
    });
    expect(readConfig("dev", { ...BASE, EMAIL_SENDER: "pay.example.org" })).toMatchObject({
      emailSender: "pay.example.org",
      emailFrom: "receipts@pay.example.org",
    });
  });
});

describe("who the on-call topics page (ONCALL_EMAIL, ONCALL_HTTPS_URL)", () => {
  it("takes an address, an https endpoint, or both", () => {
    const url = "https://events.pagerduty.com/integration/abc/enqueue";
    expect(
      readConfig("dev", { ...BASE, ONCALL_EMAIL: "oncall@example.net", ONCALL_HTTPS_URL: url }).onCall,
    ).toEqual({
      email: "oncall@example.net",
      httpsUrl: url,
    });
    expect(readConfig("dev", BASE).onCall).toEqual({});
  });

  it.each([
    [{ ONCALL_EMAIL: "oncall" }, /ONCALL_EMAIL="oncall" is not an email address/],
    [{ ONCALL_HTTPS_URL: "http://pager.example.net/hook" }, /is not an https:\/\/ URL/],
    [{ ONCALL_HTTPS_URL: "pager.example.net" }, /is not an https:\/\/ URL/],
  ])("refuses %j", (env, message) => {
    expect(() => readConfig("dev", { ...BASE, ...env })).toThrow(message);
  });

  it("a production stage must page someone", () => {
    expect(() => readConfig("production", BASE)).toThrow(
      /must page someone: set ONCALL_EMAIL and\/or ONCALL_HTTPS_URL/,
    );
    expect(() => readConfig("live", { ...BASE, STAGE_KIND: "production" })).toThrow(/must page someone/);
  });
});

describe("the stage's PSP dialect (PSP)", () => {
  it.each([
    [{}, "generic"],
    [{ PSP: "" }, "generic"],
    [{ PSP: "generic" }, "generic"],
    [{ PSP: "stripe" }, "stripe"],
  ])("%o deploys the %s dialect", (env, dialect) => {
    // act / assess
    expect(readConfig("dev", { ...BASE, ...env }).psp).toBe(dialect);
  });

  it.each(["Stripe", "adyen", "stripe-test"])(
    "refuses PSP=%s before anything is created, naming both values",
    (raw) => {
      // act / assess
      expect(() => readConfig("dev", { ...BASE, PSP: raw })).toThrow(
        `PSP must be "generic" or "stripe", not "${raw}"`,
      );
    },
  );
});
