import { Resource } from "sst/resource";
import { ConfigError } from "./switches";

/** The PSP's secrets: the SST secret's name (linked in AWS) and the variable the local runtime sets. */
export const PSP_SECRETS = {
  apiKey: { link: "PspApiKey", env: "PSP_API_KEY" },
  webhookSecret: { link: "PspWebhookSecret", env: "PSP_WEBHOOK_SECRET" },
} as const;

export type PspSecretName = keyof typeof PSP_SECRETS;

type Linked = Record<string, { value?: unknown } | undefined>;

/**
 * A PSP secret: in AWS from the SST secret linked to this function (SST's Resource reads the encrypted
 * link file), locally from the plain variable. Only the handlers that call the PSP, or check its signature,
 * are linked; in any other function this throws instead of falling back to a made-up key.
 */
export function pspSecret(
  name: PspSecretName,
  env: NodeJS.ProcessEnv = process.env,
  linked: Linked = Resource as unknown as Linked,
): string {
  const { link, env: variable } = PSP_SECRETS[name];
  const fromLink = link in linked ? linked[link]?.value : undefined;
  if (typeof fromLink === "string" && fromLink !== "") return fromLink;
  const fromEnv = env[variable];
  if (fromEnv !== undefined && fromEnv !== "") return fromEnv;
  throw new ConfigError(
    `the PSP secret ${link} is not linked to this function and ${variable} is not set; ` +
      "only the handlers that call the PSP or check its signature may read it",
  );
}
