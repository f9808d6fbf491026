import { SetEndpointAttributesCommand } from "@aws-sdk/client-sns";
import { DeleteCommand } from "@aws-sdk/lib-dynamodb";
import { documentClient, loadConfig, tokenKey } from "@eo/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LocalStack } from "../../packages/local/src/stack/start-stack";
import {
  buyer,
  intentOf,
  merchantId,
  pay,
  screenOf,
  settled,
  startAsyncStack,
} from "../async/support/async-stack";
import { snapshotTables } from "../support/tables";
import { deleteDevice, devicesOf, endpointAttributes, postDevice, snsOf } from "./support/device-api";

let stack: LocalStack;

beforeAll(async () => {
  stack = await startAsyncStack();
});
afterAll(async () => {
  await stack?.stop();
});

describe("A phone that changes hands moves to the new caller", () => {
  it("answers 201 with the new caller's device id, and from then on only the new caller's pushes reach it", async () => {
    // prepare: the first owner's phone
    const [old, next] = [await buyer(stack, "first-owner"), await buyer(stack, "new-owner")];
    const token = `phone-${old.caller}`;
    const first = await postDevice(stack, old, "apns", token);
    expect(first.status).toBe(201);
    // act: the phone is reset and signed in by someone else
    const moved = await postDevice(stack, next, "apns", token);
    // assess
    expect(moved.status).toBe(201);
    expect(moved.body.device_id).toMatch(/^dev_[0-9a-f]{24}$/);
    expect(moved.body.device_id).not.toBe(first.body.device_id);
    expect(await devicesOf(old.caller)).toEqual([]);
    expect((await devicesOf(next.caller)).map((d) => d.device_id)).toEqual([moved.body.device_id]);
    const oldPay = await pay(stack, old, { merchant: merchantId("m-old") });
    await settled(stack, oldPay.eventId);
    expect(await intentOf(oldPay.eventId, "push")).toMatchObject({
      state: "SUPPRESSED",
      reason: "no-enabled-device",
    });
    const newPay = await pay(stack, next, { merchant: merchantId("m-new") });
    await settled(stack, newPay.eventId);
    const screen = await screenOf(stack, next);
    expect(screen.shown.map((s) => s.replace_id)).toEqual([newPay.body.payment_id]);
    // and the old owner's device id is no longer theirs to delete
    expect((await deleteDevice(stack, old, first.body.device_id as string)).status).toBe(404);
  });

  it("moves a device registered before token pointers existed, by the owner SNS holds for the endpoint", async () => {
    // prepare: a device whose token has no pointer (as every device registered before this change)
    const [old, next] = [await buyer(stack, "legacy-owner"), await buyer(stack, "legacy-next")];
    const token = `legacy-${old.caller}`;
    expect((await postDevice(stack, old, "fcm", token)).status).toBe(201);
    await documentClient().send(
      new DeleteCommand({ TableName: loadConfig().consumerTable, Key: tokenKey("fcm", token) }),
    );
    // act
    const moved = await postDevice(stack, next, "fcm", token);
    // assess
    expect(moved.status).toBe(201);
    expect(await devicesOf(old.caller)).toEqual([]);
    expect(await devicesOf(next.caller)).toHaveLength(1);
  });

  it("registering the same token again is the same device, and enables again an endpoint the platform disabled", async () => {
    // prepare
    const b = await buyer(stack, "again");
    const first = await postDevice(stack, b, "fcm", `fcm-${b.caller}`);
    const [device] = await devicesOf(b.caller);
    const sns = snsOf(stack);
    await sns.send(
      new SetEndpointAttributesCommand({
        EndpointArn: device?.endpoint_arn,
        Attributes: { Enabled: "false" },
      }),
    );
    sns.destroy();
    // act
    const again = await postDevice(stack, b, "fcm", `fcm-${b.caller}`);
    // assess
    expect(again).toMatchObject({ status: 201, body: first.body });
    expect(await devicesOf(b.caller)).toEqual([device]);
    expect(await endpointAttributes(stack, device?.endpoint_arn as string)).toMatchObject({
      Enabled: "true",
    });
  });
});

describe("DELETE /devices/{device_id}", () => {
  it("answers 404 to anyone but the owner (nothing changes), 204 to the owner, and the device gets no more notifications", async () => {
    // prepare
    const [owner, other] = [await buyer(stack, "owner"), await buyer(stack, "other")];
    const registered = await postDevice(stack, owner, "apns", `apns-${owner.caller}`);
    const deviceId = registered.body.device_id as string;
    const [device] = await devicesOf(owner.caller);
    // act 1: someone else
    const before = await snapshotTables(stack);
    const refused = await deleteDevice(stack, other, deviceId);
    // assess 1
    expect(refused.status).toBe(404);
    expect(refused.type).toBe("application/problem+json");
    expect(refused.body.detail).toBe(`no device ${deviceId}`);
    expect(await snapshotTables(stack)).toEqual(before);
    // act 2: the owner
    const deleted = await deleteDevice(stack, owner, deviceId);
    // assess 2
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe("");
    expect(await devicesOf(owner.caller)).toEqual([]);
    expect(await endpointAttributes(stack, device?.endpoint_arn as string)).toBe("NotFoundException");
    const paid = await pay(stack, owner, { merchant: merchantId("m-deleted") });
    await settled(stack, paid.eventId);
    expect(await intentOf(paid.eventId, "push")).toMatchObject({
      state: "SUPPRESSED",
      reason: "no-enabled-device",
    });
    expect((await screenOf(stack, owner)).shown).toEqual([]);
    expect((await deleteDevice(stack, owner, deviceId)).status).toBe(404);
    // and the token can be registered afresh
    expect((await postDevice(stack, owner, "apns", `apns-${owner.caller}`)).body.device_id).toBe(deviceId);
  });
});
