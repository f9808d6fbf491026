import type { PspContext } from "../context";
import { intentsOf } from "./payment-intent-read";
import { settleDueRefunds } from "./refund-life";
import { intentSucceededEvent } from "./stripe-events";

/** Lets every `processing` PaymentIntent whose time has come by the PSP's clock succeed; returns how many. */
export function settleDueIntents(ctx: PspContext): number {
  const now = ctx.opts.clock.now();
  let settled = 0;
  for (const account of ctx.ledger.accounts()) {
    for (const c of intentsOf(ctx, account)) {
      const extras = c.stripe;
      if (c.status !== "pending" || extras?.waiting !== "processing" || (extras.succeedsAtMs ?? 0) > now)
        continue;
      c.status = "succeeded";
      delete extras.waiting;
      delete extras.succeedsAtMs;
      settled += 1;
      if (ctx.opts.dialect === "stripe") ctx.webhooks.send(intentSucceededEvent(c, Math.floor(now / 1000)));
    }
  }
  return settled;
}

/** Makes every change the PSP's clock has made due (intents that finish processing, refunds that settle or fail). */
export function settleDue(ctx: PspContext): number {
  return settleDueIntents(ctx) + settleDueRefunds(ctx);
}
