import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { snapshotTables } from "../support/tables";

// The handlers read REGION_ACTIVE on every call (a test flips it, as promotion does). A value that is not
// exactly "true" or "false" used to read as active; now every handler that would act on it refuses.
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

afterEach(() => {
  process.env.REGION_ACTIVE = "true";
});

describe("a Region whose REGION_ACTIVE is neither true nor false", () => {
  it.each([
    ["yes", "yes"],
    ["TRUE", "TRUE"],
    ["unset", undefined],
  ])(
    "REGION_ACTIVE %s: writes are refused with a problem, the resolver and the sweeps do nothing",
    async (_what, raw) => {
      // prepare: a payment whose reply was lost, which an acting resolver would settle
      stack().psp.setWebhookUrl(undefined);
      const token = await api().token("u1");
      await api().local("POST", "/faults", { psp_lose_reply: 1 });
      await api().pay(token, newKey(), order42());
      const before = await snapshotTables(stack());
      const pspCalls = stack().psp.requests();
      if (raw === undefined) delete process.env.REGION_ACTIVE;
      else process.env.REGION_ACTIVE = raw;
      // act
      const write = await api().pay(token, newKey(), order42());
      const resolver = await api().local("POST", "/run/resolver");
      const sweeps = await api().local("POST", "/run/sweeps");
      process.env.REGION_ACTIVE = "true";
      // assess
      expect(write.status).toBe(500);
      expect(write.headers.get("content-type")).toMatch(/application\/problem\+json/);
      expect(resolver.status).toBe(500);
      expect(String(resolver.body.detail)).toMatch(/REGION_ACTIVE must be "true" or "false"/);
      expect(sweeps.status).toBe(500);
      expect(stack().psp.requests()).toBe(pspCalls);
      expect(await snapshotTables(stack())).toEqual(before);
      // leave nothing unsettled for the next case
      await api().local("POST", "/run/resolver");
    },
  );
});
