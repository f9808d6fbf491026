import type { RegionContext } from "./region";

/** One Region's push applications (SNS is regional) and SES identity. */
export interface RegionPushEmail {
  apns: aws.sns.PlatformApplication;
  fcm: aws.sns.PlatformApplication;
  email: sst.aws.Email;
  /** The From address handlers use. */
  emailFrom: string;
}

/** Creates one Region's SNS platform applications (credentials from SST secrets) and SES sending identity. */
export function createPushEmail(
  ctx: Pick<RegionContext, "prefix" | "role" | "provider" | "config" | "secrets">,
) {
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
  const email = new sst.aws.Email(`${prefix}Email`, { sender: config.emailSender }, { provider });
  return { apns, fcm, email, emailFrom: config.emailFrom } satisfies RegionPushEmail;
}
