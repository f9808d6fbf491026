import { describe, expect, it } from "vitest";
import { ApiClient, newKey, order42 } from "../support/api-client";
import { useLocalStack } from "../support/local-stack";
import { eventually } from "../support/tables";

// Both local Regions run everything (contract, "Two Regions locally"); the primary is active, the standby passive.
const stack = useLocalStack({ standby: true, replicationLagMs: 300 });
const primary = () => new ApiClient(stack().apiUrl);
const standby = () => new ApiClient(stack().standbyUrl ?? "");

describe("two local Regions", () => {
  it("serve both APIs; the passive standby refuses writes and reads the replicated payment", async () => {
    // prepare
    const token = await primary().token("u1");
    // act
    const paid = await primary().pay(token, newKey(), order42());
    const refused = await standby().pay(token, newKey(), order42());
    const replicated = await eventually(
      async () => {
        // The guard and the move to SUCCEEDED ship as two writes: wait for the last, not the first.
        const r = await standby().get(token, String(paid.body.payment_id));
        return r.status === 200 && r.body.state !== "PROCESSING" ? r : undefined;
      },
      10_000,
      "the payment row in the standby",
    );
    const regions = await standby().local("GET", "/regions");
    // assess
    expect(paid.status).toBe(201);
    expect(refused.status).toBe(503);
    expect(String(refused.body.type)).toMatch(/\/region-passive$/);
    expect(replicated.body).toMatchObject({ payment_id: paid.body.payment_id, state: "SUCCEEDED" });
    expect(regions.body).toMatchObject({
      active: "primary",
      epoch: 1,
      regions: { primary: { up: true }, standby: { up: true } },
      replication: { lag_ms: 300, running: true },
    });
  });

  it("a failed Region answers 503 region-down, and its unshipped writes wait until it recovers", async () => {
    // prepare: a long lag, so that the payment's rows are unshipped when the primary fails
    const token = await primary().token("u1");
    await primary().local("POST", "/replication", { lag_ms: 3_000 });
    const paid = await primary().pay(token, newKey(), order42());
    // act
    await primary().local("POST", "/regions/primary/fail");
    const down = await primary().pay(token, newKey(), order42());
    await new Promise((r) => setTimeout(r, 3_500));
    const whileDown = await standby().get(token, String(paid.body.payment_id));
    await primary().local("POST", "/regions/primary/recover");
    await primary().local("POST", "/replication", { lag_ms: 300 });
    const after = await eventually(
      async () => {
        // The row's versions ship in order (PENDING, then SUCCEEDED): wait for the last one, not the first.
        const r = await standby().get(token, String(paid.body.payment_id));
        return r.status === 200 && r.body.state === "SUCCEEDED" ? r : undefined;
      },
      10_000,
      "the settled payment row after recovery",
    );
    // assess
    expect(down.status).toBe(503);
    expect(String(down.body.type)).toMatch(/\/region-down$/);
    expect(whileDown.status).toBe(404);
    expect(after.body.state).toBe("SUCCEEDED");
  });

  it("refuses a replication setting that is not a number, with a problem", async () => {
    const bad = await primary().local("POST", "/replication", { lag_ms: "soon" });
    expect(bad.status).toBe(400);
    expect(String(bad.body.detail)).toMatch(/lag_ms must be a non-negative number/);
  });
});
