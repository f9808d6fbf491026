import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mintToken } from "../../packages/local/src/runtime/jwt";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import { buyer, startAsyncStack } from "../async/support/async-stack";
import { snapshotTables } from "../support/tables";
import { type DeviceReply, devicesApi, postDevice } from "./support/device-api";

let stack: LocalStack;

beforeAll(async () => {
  stack = await startAsyncStack();
});
afterAll(async () => {
  await stack?.stop();
});

/** Runs a request and checks the contract for bad input: the status, problem+json with a detail, and no write. */
async function refusedWithoutWrites(send: () => Promise<DeviceReply>, status: number, detail: RegExp) {
  const before = await snapshotTables(stack);
  const reply = await send();
  expect(reply.status).toBe(status);
  expect(reply.type).toBe("application/problem+json");
  expect(reply.body).toMatchObject({ status, detail: expect.stringMatching(detail) });
  expect(await snapshotTables(stack)).toEqual(before);
}

const json = (body: unknown) => ({ body: JSON.stringify(body), contentType: "application/json" });

describe("POST /devices refuses bad input with a problem and writes nothing", () => {
  const cases: Array<[string, { body?: string; contentType?: string }, number, RegExp]> = [
    [
      "a body that is not JSON",
      { body: "platform=apns", contentType: "application/json" },
      400,
      /must be JSON/,
    ],
    ["no body", {}, 400, /must be JSON/],
    ["a JSON array", json([{ platform: "apns", token: "t" }]), 400, /JSON object/],
    ["an unknown platform", json({ platform: "sms", token: "t" }), 400, /platform must be/],
    ["no token", json({ platform: "apns" }), 400, /token must be/],
    ["a token with a space", json({ platform: "fcm", token: "a b" }), 400, /token must be/],
    [
      "a token over 4096 characters",
      json({ platform: "fcm", token: "t".repeat(4097) }),
      400,
      /token must be/,
    ],
    [
      "an installation_id without its counter",
      json({ platform: "fcm", token: "t", installation_id: "I1" }),
      400,
      /installation_id and counter come together/,
    ],
    [
      "a counter below 0",
      json({ platform: "fcm", token: "t", installation_id: "I1", counter: -1 }),
      400,
      /counter must be a whole number from 0 up/,
    ],
    [
      "an installation_id with a #",
      json({ platform: "fcm", token: "t", installation_id: "I#1", counter: 1 }),
      400,
      /installation_id must be 1 to 64 letters/,
    ],
    [
      "a body over 16 KiB",
      json({ platform: "apns", token: "t", pad: "x".repeat(17_000) }),
      413,
      /over 16384 bytes/,
    ],
    [
      "a Content-Type other than JSON",
      { body: '{"platform":"apns","token":"t"}', contentType: "text/plain" },
      400,
      /Content-Type must be application\/json/,
    ],
  ];
  for (const [what, opts, status, detail] of cases) {
    it(`${what}: ${status}`, async () => {
      const b = await buyer(stack, "bad-device");
      await refusedWithoutWrites(() => devicesApi(stack, b, "POST", "/devices", opts), status, detail);
    });
  }

  it("a 2,100-character sub in the token (over the 1,024 bytes a device key may hold): 400", async () => {
    const token = await mintToken("s".repeat(2100));
    await refusedWithoutWrites(
      () => postDevice(stack, { token }, "apns", "t-long-sub"),
      400,
      /sub is over 1024 bytes/,
    );
  });

  it("a token SNS refuses: 400 with SNS's reason, never a 500", async () => {
    const b = await buyer(stack, "refused-token");
    await refusedWithoutWrites(
      () => postDevice(stack, b, "apns", `EO-TEST-REFUSE-${b.caller}`),
      400,
      /^the push service refused the device token: Invalid parameter: Token Reason: /,
    );
  });
});

describe("DELETE /devices/{device_id} refuses bad input with a problem and writes nothing", () => {
  const cases: Array<[string, string, { body?: string }, number, RegExp]> = [
    [
      "a 2,100-character id",
      `dev_${"a".repeat(2096)}`,
      {},
      400,
      /device_id must be dev_ followed by 24 hex digits/,
    ],
    ["an id of the wrong shape", "dev_XYZ", {}, 400, /device_id must be dev_/],
    ["an id nobody holds", `dev_${"0".repeat(24)}`, {}, 404, /^no device dev_0{24}$/],
    ["a body", `dev_${"0".repeat(24)}`, { body: "{}" }, 400, /takes no body/],
    ["a body over 16 KiB", `dev_${"0".repeat(24)}`, { body: "x".repeat(17_000) }, 413, /over 16384 bytes/],
  ];
  for (const [what, id, opts, status, detail] of cases) {
    it(`${what}: ${status}`, async () => {
      const b = await buyer(stack, "bad-delete", { phone: "apns" });
      await refusedWithoutWrites(
        () => devicesApi(stack, b, "DELETE", `/devices/${id}`, opts),
        status,
        detail,
      );
    });
  }

  it("a 2,100-character sub in the token (over the 1,024 bytes a device key may hold): 400", async () => {
    const token = await mintToken("s".repeat(2100));
    await refusedWithoutWrites(
      () => devicesApi(stack, { token }, "DELETE", `/devices/dev_${"0".repeat(24)}`),
      400,
      /sub is over 1024 bytes/,
    );
  });
});
