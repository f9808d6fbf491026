import { type PspAccess, pspDialectOf, STRIPE_API_URL } from "@eo/core";
import { Resource } from "sst/resource";
import { type Target, TargetError } from "./target";

export type { PspAccess } from "@eo/core";

type Linked = Record<string, { value?: unknown; stage?: unknown } | undefined>;

/** The local stack's PSP keys: the ones `npm start` hands its handlers (packages/local handler-env.ts). */
const LOCAL_API_KEY = "sk_local";
const LOCAL_STRIPE_KEY = "sk_test_local";

/**
 * The PSP's URL, API key and dialect for a target. The dialect is the target's (the stage outputs' or the local
 * stack's PSP), else the variable PSP. Locally: the fake PSP on PSP_PORT and the stack's key. For a stage they are
 * SST secrets (PspUrl and PspApiKey; on a Stripe stage StripeSecretKey, the URL being Stripe's API), never stage
 * outputs: from `npx sst shell --stage <s> -- …` (which links every resource of the stage, secrets included) or, for
 * those who keep them elsewhere, PSP_URL and PSP_API_KEY (STRIPE_SECRET_KEY). Throws a TargetError saying so when
 * neither is there; `linked` is SST's Resource (a test may hand another).
 */
export function pspFor(
  t: Target,
  env: NodeJS.ProcessEnv = process.env,
  linked: Linked = Resource as unknown as Linked,
): PspAccess {
  const psp = pspDialectOf({ PSP: t.tunables.PSP || env.PSP });
  const stripe = psp === "stripe";
  if (t.local)
    return {
      url: t.local.pspUrl,
      apiKey: stripe ? env.STRIPE_SECRET_KEY || LOCAL_STRIPE_KEY : env.PSP_API_KEY || LOCAL_API_KEY,
      psp,
    };
  const shellStage = "App" in linked ? linked.App?.stage : undefined;
  if (typeof shellStage === "string" && t.stage && shellStage !== t.stage)
    throw new TargetError(
      `refused: this runs under \`sst shell\` for stage "${shellStage}", not "${t.stage}"`,
    );
  const read = (link: string, variable: string) => {
    const fromLink = link in linked ? linked[link]?.value : undefined;
    if (typeof fromLink === "string" && fromLink !== "") return fromLink;
    const fromEnv = env[variable];
    return fromEnv !== undefined && fromEnv !== "" ? fromEnv : undefined;
  };
  const stage = t.stage ?? "<stage>";
  if (stripe) {
    const apiKey = read("StripeSecretKey", "STRIPE_SECRET_KEY");
    if (apiKey) return { url: env.PSP_URL || STRIPE_API_URL, apiKey, psp };
    throw new TargetError(
      `refused: the stage's Stripe key is the SST secret StripeSecretKey, never an output: run this under \`npx sst shell --stage ${stage} -- …\`, or set STRIPE_SECRET_KEY`,
    );
  }
  const url = read("PspUrl", "PSP_URL");
  const apiKey = read("PspApiKey", "PSP_API_KEY");
  if (url && apiKey) return { url, apiKey, psp };
  throw new TargetError(
    `refused: the PSP's URL and API key are SST secrets (PspUrl, PspApiKey), never outputs: run this under \`npx sst shell --stage ${stage} -- …\`, or set PSP_URL and PSP_API_KEY`,
  );
}
