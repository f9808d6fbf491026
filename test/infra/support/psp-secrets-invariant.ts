/**
 * Where the PSP's secrets reach: a function can read a secret through its plain environment or through its
 * links (SST seals them into the bundle's resource.enc). Held to the rule, not to the manifest.
 */
import { handlers } from "../../../stacks/handlers";
import type { CapturedResource } from "./capture";
import type { Invariant, View } from "./invariants";

type Secret = "apiKey" | "webhookSecret";

/** Contract: the secret each handler may read (those that call the PSP, and the webhook that checks its signature). */
export const PSP_SECRET_READERS: Readonly<Record<string, Secret>> = {
  CreatePayment: "apiKey",
  // Resolving a key the server never saw asks the PSP by our reference (resolveKey) before it voids the key.
  ResolvePayment: "apiKey",
  CancelPayment: "apiKey",
  Resolver: "apiKey",
  // Lists the PSP's charges (read-only, but the list API wants the same key).
  Reconcile: "apiKey",
  PspWebhook: "webhookSecret",
};
/** Handlers that must never read either secret, named so that a violation says so plainly. */
export const NEVER_PSP_SECRETS = [
  "NotifyWorker",
  "OutboxRelay",
  "RegisterDevice",
  "DeleteDevice",
  "GetPayment",
  "StreamJob",
  "Sweeps",
] as const;

const SECRETS: Record<Secret, { link: string; env: string }> = {
  apiKey: { link: "PspApiKey", env: "PSP_API_KEY" },
  webhookSecret: { link: "PspWebhookSecret", env: "PSP_WEBHOOK_SECRET" },
};
const ROLES = ["primary", "standby"] as const;

/** How a function can read a secret: by the variable or link of its name, or by its value anywhere in env or links. */
function waysToRead(v: View, f: CapturedResource, secret: Secret): string[] {
  const { link, env: name } = SECRETS[secret];
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

/** The PSP API key and webhook secret reach only the handlers that use them, and only through their SST link. */
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
          const allowed = PSP_SECRET_READERS[h.id] === secret;
          const never = (NEVER_PSP_SECRETS as readonly string[]).includes(h.id);
          if (ways.length > 0 && never)
            out.push(`${role}: ${h.id} must never read the PSP ${secret}, but can (${ways.join(", ")})`);
          else if (ways.length > 0 && !allowed)
            out.push(`${role}: ${h.id} can read the PSP ${secret} (${ways.join(", ")}) without using it`);
          const plain = ways.filter((w) => w.startsWith("env "));
          if (allowed && plain.length > 0)
            out.push(`${role}: ${h.id} has the PSP ${secret} in its plain environment (${plain.join(", ")})`);
          if (allowed && !ways.includes(`link ${SECRETS[secret].link}`))
            out.push(`${role}: ${h.id} needs the PSP ${secret} but is not linked to ${SECRETS[secret].link}`);
        }
      }
    }
    return out;
  },
};
