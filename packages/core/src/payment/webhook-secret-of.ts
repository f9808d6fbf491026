import type { AppConfig, PspDialect } from "../config/config";
import { ConfigError } from "../config/switches";
import { Refusal } from "./payment-errors";

const ROUTE: Record<PspDialect, string> = { generic: "/webhooks/psp", stripe: "/webhooks/stripe" };

/**
 * The signing secret of one dialect's webhook route. A stage of the other dialect has no such secret (its functions
 * are not linked to it, it need not even be set): the route answers 404 and names the right one. On a stage of this
 * dialect a missing secret is a broken deployment, and stays the loud ConfigError (a 500 and an error log).
 */
export function webhookSecretOf(
  config: Pick<AppConfig, "psp" | "pspWebhookSecret" | "stripeWebhookSecret">,
  dialect: PspDialect,
): string {
  try {
    return dialect === "stripe" ? config.stripeWebhookSecret : config.pspWebhookSecret;
  } catch (err) {
    if (!(err instanceof ConfigError) || config.psp === dialect) throw err;
    throw new Refusal(
      "not-found",
      `this stage's PSP speaks the ${config.psp} dialect (PSP=${config.psp}): its events go to POST ` +
        `${ROUTE[config.psp]}, and no ${dialect} webhook secret is linked here`,
    );
  }
}
