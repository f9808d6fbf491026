/**
 * Where the PSP's secrets reach: a function can read a secret through its plain environment or through its
 * links (SST seals them into the bundle's resource.enc). Held to the rule, not to the manifest.
 */
import { handlers } from "../../../stacks/handlers";
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";

type Secret = "apiKey" | "webhookSecret";
/** What a manifest entry may declare: the API key, or one webhook route's signing secret. */
type Reads = Secret | "stripeWebhookSecret";
type Dialect = "generic" | "stripe";

/**
 * Contract: the secret each handler may read (those that call the PSP, and each webhook route that checks a
 * signature). The API key is the stage dialect's; a webhook route reads its signing secret only on a stage of its
 * dialect (the other dialect's secret is not even declared there).
 */
export const PSP_SECRET_READERS: Readonly<Record<string, Reads>> = {
  CreatePayment: "apiKey",
  // Resolving a key the server never saw asks the PSP by our reference (resolveKey) before it voids the key.
  ResolvePayment: "apiKey",
  CancelPayment: "apiKey",
  Resolver: "apiKey",
  // Lists the PSP's charges (read-only, but the list API wants the same key).
  Reconcile: "apiKey",
  PspWebhook: "webhookSecret",
  StripeWebhook: "stripeWebhookSecret",
};
/** Handlers that must never read either secret, named so that a violation says so plainly. */
export const NEVER_PSP_SECRETS = [
  "NotifyWorker",
  "LedgerStream",
  "RegisterDevice",
  "DeleteDevice",
  "GetPayment",
  "Sweeps",
] as const;

const SECRETS: Record<Dialect, Record<Secret, { link: string; env: string }>> = {
  generic: {
    apiKey: { link: "PspApiKey", env: "PSP_API_KEY" },
    webhookSecret: { link: "PspWebhookSecret", env: "PSP_WEBHOOK_SECRET" },
  },
  stripe: {
    apiKey: { link: "StripeSecretKey", env: "STRIPE_SECRET_KEY" },
    webhookSecret: { link: "StripeWebhookSecret", env: "STRIPE_WEBHOOK_SECRET" },
  },
};

/** The stage secret a handler reads on a stage of `dialect`, if any. */
function readsOn(id: string, dialect: Dialect): Secret | undefined {
  const reads = PSP_SECRET_READERS[id];
  if (reads === "apiKey") return "apiKey";
  if (reads === "webhookSecret") return dialect === "generic" ? "webhookSecret" : undefined;
  if (reads === "stripeWebhookSecret") return dialect === "stripe" ? "webhookSecret" : undefined;
  return undefined;
}
const ROLES = ["primary", "standby"] as const;

/** How a function can read a secret: by the variable or link of its name, or by its value anywhere in env or links. */
function waysToRead(v: View, f: CapturedResource, secret: Secret): string[] {
  const { link, env: name } = SECRETS[v.expected.psp][secret];
  const value = v.expected.pspSecrets[secret];
  const env = v.env(f);
  const links = v.linksOf(f) ?? {};
  const ways: string[] = [];
  if (name in env) ways.push(`env ${name}`);
  for (const [k, val] of Object.entries(env)) if (k !== name && val.includes(value)) ways.push(`env ${k}`);
  if (link in links) ways.push(`link ${link}`);
  for (const [k, props] of Object.entries(links)) {
    if (k !== link && JSON.stringify(props).includes(value)) ways.push(`link ${k}`);
  }
  return ways;
}

/**
 * The stage dialect's PSP API key and webhook secret reach only the handlers that use them, and only through their
 * SST link; on a Stripe stage the webhook secret is StripeWebhookSecret, read by StripeWebhook alone.
 */
export const pspSecrets: Invariant = {
  name: "the PSP secrets only where the PSP is called or its signature checked",
  check(v) {
    // Every handler is named on one side: a new one is a decision, not a silent "neither".
    const out = handlers
      .filter(
        (h) => !(h.id in PSP_SECRET_READERS) && !(NEVER_PSP_SECRETS as readonly string[]).includes(h.id),
      )
      .map((h) => `${h.id} is in neither PSP_SECRET_READERS nor NEVER_PSP_SECRETS`);
    for (const role of ROLES) {
      for (const h of handlers) {
        const f = v.fn(role, h.id);
        if (!f) continue;
        if (!v.linksOf(f)) out.push(`${role}: ${h.id} was not built, so its links are unknown`);
        for (const secret of ["apiKey", "webhookSecret"] as const) {
          const ways = waysToRead(v, f, secret);
          const allowed = readsOn(h.id, v.expected.psp) === secret;
          const never = (NEVER_PSP_SECRETS as readonly string[]).includes(h.id);
          if (ways.length > 0 && never)
            out.push(`${role}: ${h.id} must never read the PSP ${secret}, but can (${ways.join(", ")})`);
          else if (ways.length > 0 && !allowed)
            out.push(`${role}: ${h.id} can read the PSP ${secret} (${ways.join(", ")}) without using it`);
          const plain = ways.filter((w) => w.startsWith("env "));
          if (allowed && plain.length > 0)
            out.push(`${role}: ${h.id} has the PSP ${secret} in its plain environment (${plain.join(", ")})`);
          const { link } = SECRETS[v.expected.psp][secret];
          if (allowed && !ways.includes(`link ${link}`))
            out.push(`${role}: ${h.id} needs the PSP ${secret} but is not linked to ${link}`);
        }
      }
    }
    return out;
  },
};
