import { Resource } from "sst/resource";
import { invocationLinks, type LinkedResources } from "./invocation-links";
import type { PspDialect } from "./psp-dialect";
import { ConfigError } from "./switches";

/**
 * The PSP's secrets: the SST secret's name (linked in AWS) and the variable the local runtime sets. The generic
 * dialect's pair, and Stripe's (a stage with PSP=stripe declares only Stripe's, a generic stage only its own).
 */
export const PSP_SECRETS = {
  apiKey: { link: "PspApiKey", env: "PSP_API_KEY" },
  webhookSecret: { link: "PspWebhookSecret", env: "PSP_WEBHOOK_SECRET" },
  stripeSecretKey: { link: "StripeSecretKey", env: "STRIPE_SECRET_KEY" },
  stripeWebhookSecret: { link: "StripeWebhookSecret", env: "STRIPE_WEBHOOK_SECRET" },
} as const;

export type PspSecretName = keyof typeof PSP_SECRETS;

/**
 * What a handler's manifest entry declares it reads (stacks/handlers.ts `access.pspSecret`): the API key of the
 * stage's PSP, whichever dialect, or the signing secret of one webhook route.
 */
export type PspSecretRole = "apiKey" | "webhookSecret" | "stripeWebhookSecret";

/** The secret a role reads in a dialect: the API key is Stripe's secret key on a Stripe stage, else the PSP's own. */
export function secretOfRole(role: PspSecretRole, dialect: PspDialect): PspSecretName {
  return role === "apiKey" && dialect === "stripe" ? "stripeSecretKey" : role;
}

const ONLY_READERS = "only the handlers that call the PSP or check its signature may read it";

/**
 * A PSP secret: in AWS from the SST secret linked to this function (SST's Resource reads the encrypted link file);
 * in a local invocation from the links its manifest entry gives it, and nothing else (as in AWS, where no function
 * has the variable); elsewhere (an operator script, a test) from the plain variable. Only the handlers that call the
 * PSP, or check its signature, are linked; in any other function this throws instead of falling back to a made-up key.
 */
export function pspSecret(
  name: PspSecretName,
  env: NodeJS.ProcessEnv = process.env,
  linked?: LinkedResources,
): string {
  const { link, env: variable } = PSP_SECRETS[name];
  const invocation = linked ? undefined : invocationLinks();
  if (invocation) {
    const value = linkedValue(invocation, link);
    if (value !== undefined) return value;
    throw new ConfigError(
      `the PSP secret ${link} is not linked to this function (its entry in stacks/handlers.ts declares no ` +
        `pspSecret "${name === "stripeSecretKey" ? "apiKey" : name}"); ${ONLY_READERS}`,
    );
  }
  const fromLink = linkedValue(linked ?? (Resource as unknown as LinkedResources), link);
  if (fromLink !== undefined) return fromLink;
  const fromEnv = env[variable];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  throw new ConfigError(
    `the PSP secret ${link} is not linked to this function and ${variable} is not set; ${ONLY_READERS}`,
  );
}

function linkedValue(links: LinkedResources, link: string): string | undefined {
  const value = link in links ? links[link]?.value : undefined;
  return typeof value === "string" && value !== "" ? value : undefined;
}
