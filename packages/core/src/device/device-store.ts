import { createHash } from "node:crypto";
import {
  type DynamoDBDocumentClient,
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
} from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import type { Device, Platform, TokenHolder } from "./device";

/** A caller's devices, and the pointer from each token to the one device that holds it. */
export interface DeviceStore {
  get(caller: string, deviceId: string): Promise<Device | undefined>;
  list(caller: string): Promise<Device[]>;
  /** The device the token's pointer names, if any. */
  holderOf(platform: Platform, token: string): Promise<TokenHolder | undefined>;
  /**
   * Stores the device and points its token at it, deleting `from` (the device the token moves away from) in the
   * same transaction; false when the pointer no longer names `expected` (someone else moved it meanwhile).
   */
  claim(
    device: Device,
    expected: TokenHolder | undefined,
    from?: TokenHolder,
    installation?: InstallationGuard,
  ): Promise<boolean>;
  /** Deletes the device and its token's pointer (if it still names it); false when the device was gone. */
  remove(device: Device): Promise<boolean>;
}

/**
 * The installation record a device's write is conditional on: it must still name this device at this counter and
 * be live, so that a newer registration or a delete that came between the record's write and the device's wins.
 */
export interface InstallationGuard {
  key: { pk: string; sk: string };
  counter: number;
}

/** A device item: pk `DEVICE#{caller}`, sk the device id, so a caller's pushes go to what this key holds. */
export const deviceKey = (caller: string, deviceId: string) => ({ pk: `DEVICE#${caller}`, sk: deviceId });

/** The token's pointer: keyed by a hash (tokens run to 4 KB, keys stop at 2 KB), one per platform and token. */
export const tokenKey = (platform: Platform, token: string) => ({
  pk: `DEVTOKEN#${platform}#${createHash("sha256").update(token).digest("hex")}`,
  sk: "DEVTOKEN",
});

/** Devices and token pointers on the consumer table. */
export class DynamoDeviceStore implements DeviceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async get(caller: string, deviceId: string): Promise<Device | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: deviceKey(caller, deviceId), ConsistentRead: true }),
    );
    return out.Item ? withoutKeys(out.Item) : undefined;
  }

  async list(caller: string): Promise<Device[]> {
    const out = await this.db.send(
      new QueryCommand({
        TableName: this.table,
        KeyConditionExpression: "pk = :pk",
        ExpressionAttributeValues: { ":pk": `DEVICE#${caller}` },
        ConsistentRead: true,
      }),
    );
    return (out.Items ?? []).map(withoutKeys);
  }

  async holderOf(platform: Platform, token: string): Promise<TokenHolder | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: tokenKey(platform, token), ConsistentRead: true }),
    );
    return out.Item ? { caller: out.Item.caller, device_id: out.Item.device_id } : undefined;
  }

  async claim(
    device: Device,
    expected: TokenHolder | undefined,
    from?: TokenHolder,
    installation?: InstallationGuard,
  ): Promise<boolean> {
    const pointer = {
      ...tokenKey(device.platform, device.token),
      caller: device.caller,
      device_id: device.device_id,
      platform: device.platform,
    };
    const moving = from && from.device_id !== device.device_id;
    return this.transact([
      {
        Put: {
          TableName: this.table,
          Item: pointer,
          ...(expected
            ? {
                ConditionExpression: "device_id = :expected",
                ExpressionAttributeValues: { ":expected": expected.device_id },
              }
            : { ConditionExpression: "attribute_not_exists(pk)" }),
        },
      },
      { Put: { TableName: this.table, Item: { ...deviceKey(device.caller, device.device_id), ...device } } },
      ...(moving ? [{ Delete: { TableName: this.table, Key: deviceKey(from.caller, from.device_id) } }] : []),
      ...(installation ? [installationCheck(this.table, installation, device.device_id)] : []),
    ]);
  }

  async remove(device: Device): Promise<boolean> {
    const holder = await this.holderOf(device.platform, device.token);
    const ownsPointer = holder?.device_id === device.device_id;
    return this.transact([
      {
        Delete: {
          TableName: this.table,
          Key: deviceKey(device.caller, device.device_id),
          ConditionExpression: "attribute_exists(pk)",
        },
      },
      ...(ownsPointer
        ? [
            {
              Delete: {
                TableName: this.table,
                Key: tokenKey(device.platform, device.token),
                ConditionExpression: "device_id = :id",
                ExpressionAttributeValues: { ":id": device.device_id },
              },
            },
          ]
        : []),
    ]);
  }

  private async transact(
    items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>,
  ): Promise<boolean> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}

function installationCheck(table: string, guard: InstallationGuard, deviceId: string) {
  return {
    ConditionCheck: {
      TableName: table,
      Key: guard.key,
      ConditionExpression: "#hwm = :counter AND device_id = :d AND lstate = :live",
      ExpressionAttributeNames: { "#hwm": "hwm" },
      ExpressionAttributeValues: { ":counter": guard.counter, ":d": deviceId, ":live": "LIVE" },
    },
  };
}

function withoutKeys(item: Record<string, unknown>): Device {
  const { pk: _pk, sk: _sk, ...device } = item;
  return device as unknown as Device;
}
