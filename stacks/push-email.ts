import type { RegionBase } from "./region-base";

/** One Region's push applications (SNS is regional) and SES identity. */
export interface RegionPushEmail {
  apns: aws.sns.PlatformApplication;
  fcm: aws.sns.PlatformApplication;
  email: sst.aws.Email;
  /** The From address handlers use. */
  emailFrom: string;
}

/** Creates one Region's SNS platform applications (credentials from SST secrets) and SES sending identity. */
export function createPushEmail(ctx: RegionBase) {
  const { prefix, provider, config, secrets } = ctx;
  const physical = (platform: string) => `${$app.name}-${$app.stage}-${ctx.role}-${platform}`;
  // APNs token-based authentication: the .p8 signing key, its key id, the team id and the app's bundle id.
  const apns = new aws.sns.PlatformApplication(
    `${prefix}PushApns`,
    {
      name: physical("apns"),
      platform: config.apnsPlatform,
      platformCredential: secrets.apnsSigningKey.value,
      platformPrincipal: secrets.apnsKeyId.value,
      applePlatformTeamId: secrets.apnsTeamId.value,
      applePlatformBundleId: secrets.apnsBundleId.value,
    },
    { provider },
  );
  // FCM HTTP v1: SNS takes the service account JSON as the credential of a "GCM" application.
  const fcm = new aws.sns.PlatformApplication(
    `${prefix}PushFcm`,
    { name: physical("fcm"), platform: "GCM", platformCredential: secrets.fcmServiceAccount.value },
    { provider },
  );
  const email = createEmail(prefix, ctx.role, config.emailSender, provider);
  return { apns, fcm, email, emailFrom: config.emailFrom } satisfies RegionPushEmail;
}

/**
 * One Region's SES identity. For a domain, SST's Email writes the domain's DNS records to Route 53: the DKIM
 * CNAMEs (SES gives each Region's identity its own tokens) and one `_dmarc` TXT record, the same name in every
 * Region. Created by both Regions' Emails, that record would be created twice and the deploy would fail, so the
 * primary's Email writes all its records and the standby's writes only its own DKIM records.
 */
function createEmail(prefix: string, role: RegionBase["role"], sender: string, provider: aws.Provider) {
  const standby = role === "standby";
  const email = new sst.aws.Email(
    `${prefix}Email`,
    { sender, ...(standby ? { dns: false } : {}) },
    { provider },
  );
  if (standby && !sender.includes("@")) {
    // Same names and parent as the records SST's Email would make, so nothing moves for a deployed stage.
    const dns = sst.aws.dns();
    email.nodes.identity.dkimSigningAttributes.tokens.apply((tokens) =>
      (tokens ?? []).map((token) =>
        dns.createRecord(
          `${prefix}Email`,
          { type: "CNAME", name: `${token}._domainkey.${sender}`, value: `${token}.dkim.amazonses.com` },
          { parent: email },
        ),
      ),
    );
  }
  return email;
}
