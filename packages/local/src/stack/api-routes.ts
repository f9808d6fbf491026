import type { HttpHandler, Route } from "../runtime/http-front";

const load = (mod: Promise<{ handler: unknown }>) => async () => (await mod).handler as HttpHandler;

/** The contract's API routes, each on the same handler module that Lambda runs in AWS. */
export function apiRoutes(): Route[] {
  return [
    {
      method: "POST",
      path: "/payments",
      functionName: "create-payment",
      auth: true,
      load: () => load(import("@eo/functions/http/create-payment"))(),
    },
    {
      method: "POST",
      path: "/payments/resolve",
      functionName: "resolve-payment",
      auth: true,
      load: () => load(import("@eo/functions/http/resolve-payment"))(),
    },
    {
      method: "GET",
      path: "/payments/{payment_id}",
      functionName: "get-payment",
      auth: true,
      load: () => load(import("@eo/functions/http/get-payment"))(),
    },
    {
      method: "POST",
      path: "/payments/{payment_id}/cancel",
      functionName: "cancel-payment",
      auth: true,
      load: () => load(import("@eo/functions/http/cancel-payment"))(),
    },
    // The PSP cannot hold our JWT: its webhook is authenticated by the HMAC signature instead.
    {
      method: "POST",
      path: "/webhooks/psp",
      functionName: "psp-webhook",
      auth: false,
      load: () => load(import("@eo/functions/http/psp-webhook"))(),
    },
  ];
}
