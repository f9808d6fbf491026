import { errorReply, type JsonReply, RequestError } from "../http-io";
import { type FormMap, textOf } from "./form-params";

/** A 400 `invalid_request_error` with Stripe's code and the parameter at fault; never saved under a key. */
export function invalidParam(code: string, param: string, message: string): RequestError {
  return new RequestError(400, "invalid_request_error", message, { code, param });
}

/** Stripe's answer to a required parameter left out. */
export function missingParam(param: string): RequestError {
  return invalidParam("parameter_missing", param, `Missing required param: ${param}.`);
}

/** Stripe's 404 for an object the account does not have, as a reply to save or send. */
export function resourceMissing(kind: string, id: string, param?: string): JsonReply {
  return errorReply(404, "invalid_request_error", `No such ${kind}: '${id}'`, {
    code: "resource_missing",
    ...(param === undefined ? {} : { param }),
  });
}

/** A whole number of minor units, as Stripe reads `amount` from a form. */
export function amountParam(raw: string | undefined, param = "amount"): number {
  if (raw === undefined) throw missingParam(param);
  if (!/^-?\d+$/.test(raw)) throw invalidParam("parameter_invalid_integer", param, `Invalid integer: ${raw}`);
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw invalidParam("amount_too_small", param, "Amount must be at least 1 minor unit.");
  }
  return n;
}

/** A boolean parameter as Stripe reads it from a form: `true` or `false`, false when absent. */
export function booleanParam(form: FormMap, param: string): boolean {
  const raw = textOf(form, param);
  if (raw === undefined || raw === "false") return false;
  if (raw === "true") return true;
  throw invalidParam("parameter_invalid_boolean", param, `Invalid boolean: ${raw}`);
}
