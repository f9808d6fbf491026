import { afterEach, describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { dropControl, makeActive } from "../support/regions";
import { snapshotTables } from "../support/tables";

// Which Region is active is data (the Region control), read at run time. A Region that cannot read its copy
// must not guess that it is active: every handler that would act on it refuses, and nothing is written.
const stack = useLocalStack();
const api = () => new ApiClient(stack().apiUrl);

afterEach(async () => {
  await makeActive(stack(), "primary");
});

describe("a Region with no Region control record to read", () => {
  it("refuses writes with 503 region-passive, and its resolver and sweeps do nothing", async () => {
    // prepare: a payment whose reply was lost, which an acting resolver would settle
    stack().psp.setWebhookUrl(undefined);
    const token = await api().token("u1");
    await api().local("POST", "/faults", { psp_lose_reply: 1 });
    await api().pay(token, newKey(), order42());
    await dropControl(stack());
    const before = await snapshotTables(stack());
    const pspCalls = stack().psp.requests();
    // act
    const write = await api().pay(token, newKey(), order42());
    const resolver = await api().local("POST", "/run/resolver");
    const sweeps = await api().local("POST", "/run/sweeps");
    // assess
    expect(write.status).toBe(503);
    expect(write.headers.get("content-type")).toMatch(/application\/problem\+json/);
    expect(String(write.body.detail)).toMatch(/the Region authority holds no control record/);
    expect(resolver.body.result).toEqual({ passive: true });
    expect(sweeps.body.result).toEqual({ passive: true });
    expect(stack().psp.requests()).toBe(pspCalls);
    expect(await snapshotTables(stack())).toEqual(before);
    // leave nothing unsettled for the next file's sake
    await makeActive(stack(), "primary");
    await api().local("POST", "/run/resolver");
  });
});
