import type { Expected } from "./invariants";
import type { Scenario } from "./sst-program";

/** Placeholder values for every SST secret of the app (what `sst secret set` would provide). */
export const FAKE_SECRETS: Record<string, string> = {
  SST_SECRET_PspUrl: "https://psp.example.com",
  SST_SECRET_PspApiKey: "sk_test_offline",
  SST_SECRET_PspWebhookSecret: "whsec_offline",
  SST_SECRET_ApnsSigningKey: "-----BEGIN PRIVATE KEY-----\\nOFFLINE\\n-----END PRIVATE KEY-----",
  SST_SECRET_ApnsKeyId: "ABC123DEFG",
  SST_SECRET_ApnsTeamId: "TEAM123456",
  SST_SECRET_ApnsBundleId: "com.example.payments",
  SST_SECRET_FcmServiceAccount: '{"type":"service_account","project_id":"offline"}',
};

const JWT = { issuer: "https://auth.example.com/", audience: "payments-api" };
/** An address sender (an SES email identity, no DNS): required, there is no default. */
const SENDER = "receipts@pay.example.net";
const PAGER = "https://events.pagerduty.com/integration/0123456789abcdef/enqueue";
const PSP_SECRETS = {
  apiKey: FAKE_SECRETS.SST_SECRET_PspApiKey as string,
  webhookSecret: FAKE_SECRETS.SST_SECRET_PspWebhookSecret as string,
};

/**
 * A Stripe stage's secrets: Stripe's two and the push ones, and none of the generic PSP's (PspUrl, PspApiKey,
 * PspWebhookSecret unset), so the run shows that a Stripe stage needs only `PSP=stripe` and its two secrets.
 */
export const STRIPE_STAGE_SECRETS: Record<string, string> = {
  ...Object.fromEntries(Object.entries(FAKE_SECRETS).filter(([k]) => !k.startsWith("SST_SECRET_Psp"))),
  SST_SECRET_StripeSecretKey: "sk_test_offline_stripe",
  SST_SECRET_StripeWebhookSecret: "whsec_offline_stripe",
};

/** The runs of the app the mocks test makes, each with what it must satisfy. */
export const SCENARIOS: { scenario: Scenario; expected: Expected }[] = [
  {
    // Defaults: home-Region claims, an MRSC authority, a development stage, the default Regions.
    scenario: {
      name: "home-dev",
      stage: "dev",
      env: {
        ...FAKE_SECRETS,
        JWT_ISSUER: JWT.issuer,
        EMAIL_SENDER: SENDER,
        ONCALL_EMAIL: "oncall@example.net",
      },
    },
    expected: {
      regions: { primary: "us-east-1", standby: "us-west-2", witness: "us-east-2" },
      claimMode: "home",
      controlMode: "mrsc",
      activeRegion: "primary",
      production: false,
      jwt: JWT,
      emailSender: SENDER,
      psp: "generic",
      pspSecrets: PSP_SECRETS,
      onCall: { email: "oncall@example.net" },
    },
  },
  {
    // Every switch moved: MRSC claims (and authority), production, other Regions, issuer, audience and sender.
    scenario: {
      name: "mrsc-production",
      stage: "production",
      env: {
        ...FAKE_SECRETS,
        CLAIM_MODE: "mrsc",
        PRIMARY_REGION: "eu-west-1",
        STANDBY_REGION: "eu-west-2",
        WITNESS_REGION: "eu-west-3",
        JWT_ISSUER: "https://login.example.org/tenant",
        JWT_AUDIENCE: "payments-prod",
        EMAIL_SENDER: "pay.example.org",
        ONCALL_EMAIL: "oncall@example.org",
        ONCALL_HTTPS_URL: PAGER,
      },
    },
    expected: {
      regions: { primary: "eu-west-1", standby: "eu-west-2", witness: "eu-west-3" },
      claimMode: "mrsc",
      controlMode: "mrsc",
      activeRegion: "primary",
      production: true,
      jwt: { issuer: "https://login.example.org/tenant", audience: "payments-prod" },
      emailSender: "pay.example.org",
      psp: "generic",
      pspSecrets: PSP_SECRETS,
      onCall: { email: "oncall@example.org", httpsUrl: PAGER },
    },
  },
  {
    // Regions in no one MRSC Region set: the authority is one table in WITNESS_REGION, read across Regions.
    scenario: {
      name: "single-region-staging",
      stage: "staging",
      env: {
        ...FAKE_SECRETS,
        CONTROL_MODE: "single-region",
        ACTIVE_REGION: "standby",
        PRIMARY_REGION: "us-east-1",
        STANDBY_REGION: "eu-west-1",
        WITNESS_REGION: "ca-central-1",
        JWT_ISSUER: JWT.issuer,
        EMAIL_SENDER: SENDER,
      },
    },
    expected: {
      regions: { primary: "us-east-1", standby: "eu-west-1", witness: "ca-central-1" },
      claimMode: "home",
      controlMode: "single-region",
      activeRegion: "standby",
      production: false,
      jwt: JWT,
      emailSender: SENDER,
      psp: "generic",
      pspSecrets: PSP_SECRETS,
      // No subscriber: a stage that is not production may leave its on-call topics unsubscribed.
      onCall: {},
    },
  },
  {
    // A name that looks like production, its kind stated: production in every respect, as `production` is.
    scenario: {
      name: "live-stated-production",
      stage: "live",
      env: {
        ...FAKE_SECRETS,
        STAGE_KIND: "production",
        JWT_ISSUER: JWT.issuer,
        EMAIL_SENDER: SENDER,
        ONCALL_HTTPS_URL: PAGER,
      },
    },
    expected: {
      regions: { primary: "us-east-1", standby: "us-west-2", witness: "us-east-2" },
      claimMode: "home",
      controlMode: "mrsc",
      activeRegion: "primary",
      production: true,
      jwt: JWT,
      emailSender: SENDER,
      psp: "generic",
      pspSecrets: PSP_SECRETS,
      onCall: { httpsUrl: PAGER },
    },
  },
  {
    // A stage on Stripe (test mode): PSP=stripe and Stripe's two secrets, nothing else of the PSP.
    scenario: {
      name: "stripe-dev",
      stage: "stripe",
      env: {
        ...STRIPE_STAGE_SECRETS,
        PSP: "stripe",
        JWT_ISSUER: JWT.issuer,
        EMAIL_SENDER: SENDER,
      },
    },
    expected: {
      regions: { primary: "us-east-1", standby: "us-west-2", witness: "us-east-2" },
      claimMode: "home",
      controlMode: "mrsc",
      activeRegion: "primary",
      production: false,
      jwt: JWT,
      emailSender: SENDER,
      psp: "stripe",
      pspSecrets: { apiKey: "sk_test_offline_stripe", webhookSecret: "whsec_offline_stripe" },
      onCall: {},
    },
  },
];
