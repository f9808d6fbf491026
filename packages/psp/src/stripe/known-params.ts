import type { FormMap } from "./form-params";
import { invalidParam } from "./stripe-errors";

/** The top-level parameters of `POST /v1/payment_intents` in Stripe's API reference. */
export const INTENT_CREATE_PARAMS: ReadonlySet<string> = new Set([
  "amount",
  "amount_details",
  "application_fee_amount",
  "automatic_payment_methods",
  "capture_method",
  "confirm",
  "confirmation_method",
  "confirmation_token",
  "currency",
  "customer",
  "description",
  "error_on_requires_action",
  "excluded_payment_method_types",
  "expand",
  "hooks",
  "mandate",
  "mandate_data",
  "metadata",
  "off_session",
  "on_behalf_of",
  "payment_details",
  "payment_method",
  "payment_method_configuration",
  "payment_method_data",
  "payment_method_options",
  "payment_method_types",
  "radar_options",
  "receipt_email",
  "return_url",
  "setup_future_usage",
  "shipping",
  "statement_descriptor",
  "statement_descriptor_suffix",
  "transfer_data",
  "transfer_group",
  "use_stripe_sdk",
]);

/** The top-level parameters of `POST /v1/refunds` in Stripe's API reference. */
export const REFUND_CREATE_PARAMS: ReadonlySet<string> = new Set([
  "amount",
  "charge",
  "currency",
  "customer",
  "expand",
  "instructions_email",
  "metadata",
  "origin",
  "payment_intent",
  "reason",
  "refund_application_fee",
  "reverse_transfer",
]);

/** The parameters of a retrieve by id. */
export const RETRIEVE_PARAMS: ReadonlySet<string> = new Set(["expand", "client_secret"]);

/** Refuses a body naming a parameter the endpoint does not have, as Stripe does, before anything runs. */
export function refuseUnknownParams(body: FormMap, known: ReadonlySet<string>): void {
  const unknown = Object.keys(body).find((name) => !known.has(name));
  if (unknown !== undefined) {
    throw invalidParam("parameter_unknown", unknown, `Received unknown parameter: ${unknown}`);
  }
}
