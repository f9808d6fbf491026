import { SnsFault } from "./sns-query";

/**
 * Test-only faults of the local push provider, never in AWS (real SNS refuses unknown endpoint attributes and
 * accepts these tokens). They provoke refusals that the platforms give and no local phone can:
 * - a token starting with `EO-TEST-REFUSE` is refused by CreatePlatformEndpoint with InvalidParameter, as SNS
 *   refuses a token the platform does not accept;
 * - the endpoint attribute `EO_TEST_FAULT` (set with SetEndpointAttributes) makes Publish to that endpoint fail:
 *   `Throttled:2` for the next two publishes, `InvalidParameter` (no count) for every one. `InternalError` is a 500.
 */
export const REFUSED_TOKEN_PREFIX = "EO-TEST-REFUSE";
export const FAULT_ATTRIBUTE = "EO_TEST_FAULT";

/** Throws the refusal SNS gives for a token its platform does not accept. */
export function refuseTestToken(token: string): void {
  if (token.startsWith(REFUSED_TOKEN_PREFIX))
    throw new SnsFault(
      400,
      "InvalidParameter",
      "Invalid parameter: Token Reason: the platform does not accept this device token (local test fault)",
    );
}

/** Throws the endpoint's armed publish fault, if any, consuming one occurrence of a counted one. */
export function takePublishFault(attributes: Record<string, string>): void {
  const armed = attributes[FAULT_ATTRIBUTE];
  if (!armed) return;
  const [code = "InternalError", count] = armed.split(":");
  if (count !== undefined) {
    const left = Number(count) - 1;
    if (left > 0) attributes[FAULT_ATTRIBUTE] = `${code}:${left}`;
    else delete attributes[FAULT_ATTRIBUTE];
  }
  throw new SnsFault(code === "InternalError" ? 500 : 400, code, `${code} (local test fault)`);
}
