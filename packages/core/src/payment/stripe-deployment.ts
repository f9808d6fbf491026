/** The metadata key that names the deployment (the SST app and stage) that made a Stripe object. */
export const DEPLOYMENT_METADATA_KEY = "deployment";

/** What a deployment name may be: it goes into Stripe metadata (a value) and idempotency keys (a prefix). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,62}$/;

/** Whether `name` can name a deployment on a shared Stripe account. */
export const isDeploymentName = (name: string): boolean => NAME.test(name);

/**
 * Why a verified Stripe event belongs to another deployment on the same Stripe account (several stages may share one
 * test-mode account), or undefined when it may be ours. Only an object that names a deployment, and not ours, is
 * another's: objects made before deployments were named, or at Stripe directly, carry none and are judged as before.
 */
export function otherDeploymentOf(raw: unknown, ours: string | undefined): string | undefined {
  if (!ours) return undefined;
  const data = (raw as { data?: { object?: { metadata?: unknown } } } | null)?.data;
  const metadata = data?.object?.metadata;
  if (typeof metadata !== "object" || metadata === null) return undefined;
  const theirs = (metadata as Record<string, unknown>)[DEPLOYMENT_METADATA_KEY];
  if (typeof theirs !== "string" || theirs === "" || theirs === ours) return undefined;
  return `the event is of deployment ${theirs}, not ${ours} (one Stripe account, several stages)`;
}
