import { afterEach, describe, expect, it } from "vitest";
import { PSP_SECRETS, type RegionRole } from "../../packages/core/src";
import { handlerLinks, localSecrets } from "../../packages/local/src/stack/handler-env";
import { handlers } from "../../stacks/handlers";
import { PSP_SECRET_READERS } from "../infra/support/psp-secrets-invariant";
import { ApiClient, newKey } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { makeActive } from "../support/regions";

// The local stack hands each handler the secrets of its entry in stacks/handlers.ts, as SST links them in AWS, and
// nothing from the process's environment: a handler that calls the PSP without declaring the key fails here too.
const stack = useLocalStack({ standby: true });
const resolveSpec = handlers.find((h) => h.id === "ResolvePayment");
const declared = resolveSpec?.access.pspSecret;

afterEach(async () => {
  if (resolveSpec) resolveSpec.access.pspSecret = declared;
  await makeActive(stack(), "primary");
});

/** The API of a Region, made the active one (a passive Region refuses writes before any PSP call). */
async function activeApi(role: RegionRole): Promise<ApiClient> {
  await makeActive(stack(), role);
  return new ApiClient(role === "primary" ? stack().apiUrl : String(stack().standbyUrl));
}

describe("each handler's secrets come from its entry in stacks/handlers.ts", () => {
  it("locally, each handler is linked to exactly the PSP secret the AWS invariant allows it", () => {
    // act
    const local = handlers.map((h) => [h.id, Object.keys(handlerLinks(h, localSecrets()))]);
    // assess: the same rule the offline check holds the deployed functions to (psp-secrets-invariant.ts)
    const allowed = handlers.map((h) => {
      const secret = PSP_SECRET_READERS[h.id];
      return [h.id, secret ? [PSP_SECRETS[secret].link] : []];
    });
    expect(local).toEqual(allowed);
  });

  it.each(["primary", "standby"] as const)(
    "%s: resolve-payment is linked to the PSP key, so a key the server never saw is looked up and voided",
    async (role) => {
      // prepare
      const api = await activeApi(role);
      const token = await api.token("u-links");
      const lookups = stack().psp.requests();
      // act
      const resolved = await api.resolve(token, newKey());
      // assess
      expect(resolved.status, JSON.stringify(resolved.body)).toBe(200);
      expect(resolved.body).toEqual({ state: "VOID" });
      expect(stack().psp.requests()).toBeGreaterThan(lookups);
    },
  );

  it.each(["primary", "standby"] as const)(
    "%s (broken on purpose): without the link, the same request fails as in AWS, though the process has PSP_API_KEY",
    async (role) => {
      // prepare: the manifest entry as it was before the fix
      const api = await activeApi(role);
      const token = await api.token("u-links");
      const key = newKey();
      if (resolveSpec) delete resolveSpec.access.pspSecret;
      // act
      const unlinked = await api.resolve(token, key);
      if (resolveSpec) resolveSpec.access.pspSecret = declared;
      const linked = await api.resolve(token, key);
      // assess: nothing was written by the failed call, so the linked one voids the key
      expect(process.env.PSP_API_KEY).toBeTruthy();
      expect(unlinked.status).toBe(500);
      expect(linked.status).toBe(200);
      expect(linked.body).toEqual({ state: "VOID" });
    },
  );
});
