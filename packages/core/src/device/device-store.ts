import { type DynamoDBDocumentClient, PutCommand, QueryCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import type { Device } from "./device";

/** A caller's devices. */
export interface DeviceStore {
  /** Stores the device unless it is there already; the answer is the stored one either way. */
  putIfAbsent(device: Device): Promise<Device>;
  list(caller: string): Promise<Device[]>;
}

/** Devices on the consumer table: pk `DEVICE#{caller}`, sk the device id. */
export class DynamoDeviceStore implements DeviceStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async putIfAbsent(device: Device): Promise<Device> {
    try {
      await this.db.send(
        new PutCommand({
          TableName: this.table,
          Item: { pk: `DEVICE#${device.caller}`, sk: device.device_id, ...device },
          ConditionExpression: "attribute_not_exists(pk)",
          ReturnValuesOnConditionCheckFailure: "ALL_OLD",
        }),
      );
      return device;
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
      const old = (err as { Item?: Record<string, { S?: string; N?: string }> }).Item;
      return old
        ? {
            ...device,
            endpoint_arn: old.endpoint_arn?.S ?? device.endpoint_arn,
            created_at: Number(old.created_at?.N ?? device.created_at),
          }
        : device;
    }
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
    return (out.Items ?? []).map(({ pk: _pk, sk: _sk, ...d }) => d as Device);
  }
}
