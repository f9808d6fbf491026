import { DynamoDeviceStore, deviceIdOf, documentClient, installationKey, loadConfig } from "@eo/core";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import { type Buyer, buyer, startAsyncStack } from "../async/support/async-stack";
import { snapshotTables } from "../support/tables";
import { deleteDevice, devicesApi, devicesOf } from "./support/device-api";

let stack: LocalStack;

beforeAll(async () => {
  stack = await startAsyncStack();
});
afterAll(async () => {
  await stack?.stop();
});
afterEach(() => {
  delete process.env.EO_TEST_UNSAFE_NO_VERSION_CHECK;
  delete process.env.EO_TEST_UNSAFE_CONDITION_ON_ITEM;
});

/** `POST /devices` from app installation I1 with its journal counter. */
const register = (b: Buyer, token: string, counter: number) =>
  devicesApi(stack, b, "POST", "/devices", {
    body: JSON.stringify({ platform: "fcm", token, installation_id: "I1", counter }),
    contentType: "application/json",
  });

const tokensOf = async (b: Buyer) => (await devicesOf(b.caller)).map((d) => d.token).sort();

describe("branch V: the app's resent old registration arrives last", () => {
  it("refuses token T1 (counter 41) after T2 (42) with 409 and no write; only T2 gets the caller's pushes", async () => {
    // prepare: the app registered T1, then FCM rotated the token and the app registered T2
    const b = await buyer(stack, "install-v");
    expect((await register(b, "T1", 41)).status).toBe(201);
    expect((await register(b, "T2", 42)).status).toBe(201);
    expect(await tokensOf(b)).toEqual(["T2"]);
    const before = await snapshotTables(stack);
    // act: the resent registration of T1
    const resent = await register(b, "T1", 41);
    // assess
    expect(resent.status).toBe(409);
    expect(resent.type).toBe("application/problem+json");
    expect(resent.body).toMatchObject({
      type: expect.stringMatching(/\/stale-registration$/),
      detail: expect.stringMatching(/counter 42; counter 41 is not above it/),
    });
    expect(await snapshotTables(stack)).toEqual(before);
    expect(await tokensOf(b)).toEqual(["T2"]);
  });

  it("without the counter (guard off) the resend lands last and the phone's live token T2 is dropped", async () => {
    process.env.EO_TEST_UNSAFE_NO_VERSION_CHECK = "1";
    const b = await buyer(stack, "install-v-off");
    await register(b, "T1", 41);
    await register(b, "T2", 42);
    expect((await register(b, "T1", 41)).status).toBe(201);
    expect(await tokensOf(b)).toEqual(["T1"]);
  });

  it("answers a retry of the same registration with the same device, and the app's next counter goes on", async () => {
    const b = await buyer(stack, "install-retry");
    const first = await register(b, "T1", 41);
    const again = await register(b, "T1", 41);
    const relaunch = await register(b, "T1", 43);
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(relaunch).toMatchObject({ status: 201, body: first.body });
    expect(await devicesOf(b.caller)).toEqual([expect.objectContaining({ token: "T1", counter: 43 })]);
  });
});

describe("a registration overtaken while it ran", () => {
  it("writes no device once the installation's record names a newer registration: the device's transaction checks it", async () => {
    // prepare: T1 (41) accepted, then T2 (42) registered before T1's device write
    const b = await buyer(stack, "install-race");
    await register(b, "T1", 41);
    await register(b, "T2", 42);
    const store = new DynamoDeviceStore(documentClient(), loadConfig().consumerTable);
    const late = {
      caller: b.caller,
      device_id: deviceIdOf(b.caller, "fcm", "T1"),
      platform: "fcm" as const,
      token: "T1",
      endpoint_arn: "arn:aws:sns:local:000000000000:endpoint/late",
      created_at: 0,
      installation_id: "I1",
      counter: 41,
    };
    // act: T1's late device write
    const written = await store.claim(late, undefined, undefined, {
      key: installationKey(b.caller, "I1"),
      counter: 41,
    });
    // assess
    expect(written).toBe(false);
    expect(await tokensOf(b)).toEqual(["T2"]);
  });
});

describe("branch M: the registration resent after its device was deleted", () => {
  it("is refused, because the installation's record is a tombstone; the app's next counter registers again", async () => {
    // prepare
    const b = await buyer(stack, "install-m");
    const first = await register(b, "T1", 41);
    expect((await deleteDevice(stack, b, String(first.body.device_id))).status).toBe(204);
    // act
    const resent = await register(b, "T1", 41);
    // assess
    expect(resent.status).toBe(409);
    expect(resent.body.detail).toMatch(/counter 41 and then deleted that device/);
    expect(await tokensOf(b)).toEqual([]);
    expect((await register(b, "T1", 42)).status).toBe(201);
    expect(await tokensOf(b)).toEqual(["T1"]);
  });

  it("with the condition on the device item (guard off) the resend brings the deleted device back", async () => {
    process.env.EO_TEST_UNSAFE_CONDITION_ON_ITEM = "1";
    const b = await buyer(stack, "install-m-off");
    const first = await register(b, "T1", 41);
    await deleteDevice(stack, b, String(first.body.device_id));
    expect((await register(b, "T1", 41)).status).toBe(201);
    expect(await tokensOf(b)).toEqual(["T1"]);
  });
});
