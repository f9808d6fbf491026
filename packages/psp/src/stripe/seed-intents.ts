import type { PspContext } from "../context";
import { newId } from "../ids";
import type { Charge } from "../ledger";
import type { IntentSeed } from "./intent-seed";

/**
 * Adds `count` succeeded PaymentIntents to an account without a request each: an account that takes 50,000
 * payments a day is seeded in well under a second, where creating them through the API would take hours at
 * its rate limit. They are already searchable (their `createdMs` is their creation time) and carry no events.
 */
export function seedIntents(ctx: PspContext, seed: IntentSeed): number {
  if (!Number.isInteger(seed.count) || seed.count < 0)
    throw new TypeError("count must be a whole number ≥ 0");
  if (!(seed.toMs >= seed.fromMs)) throw new TypeError("toMs must not be before fromMs");
  const step = seed.count > 1 ? (seed.toMs - seed.fromMs) / (seed.count - 1) : 0;
  for (let i = 0; i < seed.count; i++) {
    const createdMs = Math.round(seed.fromMs + i * step);
    ctx.ledger.addCharge(seed.account, seededIntent(seed.reference?.(i) ?? `seed_${i}`, createdMs));
  }
  return seed.count;
}

function seededIntent(reference: string, createdMs: number): Charge {
  const id = newId("pi");
  return {
    id,
    object: "charge",
    amount: 1000,
    currency: "usd",
    payment_method: "pm_card_visa",
    reference,
    idempotency_key: `seed:${id}`,
    status: "succeeded",
    refunded: false,
    created: Math.floor(createdMs / 1000),
    stripe: { latest_charge: newId("ch"), metadata: { payment_id: reference }, createdMs },
  };
}
