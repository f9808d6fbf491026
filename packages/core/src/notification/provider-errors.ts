/**
 * What a provider's error means for a notification: permanent (this message will never be accepted, so the
 * intent is FAILED and the event goes on) or transient (worth trying again: throttling, a 5xx, the network).
 */
export type ProviderVerdict = { permanent: boolean; code: string; reason: string };

/**
 * SES refusals that no retry changes: the message or address is rejected, the sender is not verified, or the
 * account cannot send (suspended, sending paused) until a person acts.
 */
const SES_PERMANENT = new Set([
  "MessageRejected",
  "MailFromDomainNotVerified",
  "AccountSuspended",
  "SendingPaused",
  "BadRequest",
  "NotFound",
]);

/** SNS mobile push refusals of one endpoint: disabled by the platform (uninstalled app), gone, or refused. */
const SNS_PERMANENT = new Set([
  "EndpointDisabled",
  "InvalidParameter",
  "InvalidParameterValue",
  "NotFound",
  "PlatformApplicationDisabled",
]);

/** Classifies an error from SES SendEmail. */
export const sesVerdict = (err: unknown): ProviderVerdict => verdictOf(err, SES_PERMANENT);

/** Classifies an error from SNS Publish to a platform endpoint. */
export const snsPublishVerdict = (err: unknown): ProviderVerdict => verdictOf(err, SNS_PERMANENT);

// Anything not known to be permanent is transient: retried, then redelivered and, if it never passes, kept in
// the DLQ for a person. Throttling (TooManyRequests, Throttling, Throttled, LimitExceeded) and 5xx land here.
function verdictOf(err: unknown, permanent: Set<string>): ProviderVerdict {
  const code = codeOf(err);
  const status = (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
  const serverSide = status !== undefined && status >= 500;
  const message = String((err as Error)?.message ?? err).slice(0, 300);
  return { permanent: !serverSide && permanent.has(code), code, reason: `${code}: ${message}` };
}

/** The provider's error code without the SDK's `Exception` suffix (EndpointDisabledException → EndpointDisabled). */
export function codeOf(err: unknown): string {
  const name = String((err as { name?: unknown })?.name ?? "Error");
  return name.endsWith("Exception") ? name.slice(0, -"Exception".length) : name;
}
