import { type DynamoDBDocumentClient, GetCommand, UpdateCommand } from "@aws-sdk/lib-dynamodb";
import { isConditionFailure } from "../aws/document-client";
import { TOMBSTONE } from "../locator/locator";
import { HIGH_WATER_MARK, newerThanStored } from "../version/newer-version";
import {
  type Acceptance,
  type Installation,
  type InstallationStore,
  installationKey,
  isStale,
} from "./installation";

/**
 * Installations' records on the consumer table. The record gets no `expires_at`: the table's TTL must never
 * remove the mark and tombstone a late resend has to lose to. Each write is conditional on the record as read
 * (and on the counter's rule), so two registrations at once cannot both replace the same device.
 */
export class DynamoInstallations implements InstallationStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async read(caller: string, installationId: string): Promise<Installation | undefined> {
    const out = await this.db.send(
      new GetCommand({
        TableName: this.table,
        Key: installationKey(caller, installationId),
        ConsistentRead: true,
      }),
    );
    if (!out.Item) return undefined;
    const { pk: _pk, sk: _sk, [HIGH_WATER_MARK]: hwm, lstate, ...rest } = out.Item;
    return {
      ...(rest as Omit<Installation, "hwm" | "state">),
      hwm: Number(hwm),
      state: lstate === TOMBSTONE ? TOMBSTONE : "LIVE",
    };
  }

  async accept(
    caller: string,
    installationId: string,
    counter: number,
    deviceId: string,
  ): Promise<Acceptance> {
    for (let attempt = 0; attempt < 3; attempt++) {
      const cur = await this.read(caller, installationId);
      const same = cur?.hwm === counter && cur.device_id === deviceId;
      if (same && cur.state === "LIVE") return { accepted: true, previous: cur.previous_device_id };
      if (isStale(cur, counter, deviceId)) return { accepted: false, current: cur };
      // The device this registration replaces; the same token again keeps a replaced device not yet retired.
      const previous =
        cur?.state === "LIVE" && cur.device_id !== deviceId ? cur.device_id : cur?.previous_device_id;
      if (await this.advance(caller, installationId, counter, deviceId, cur, previous, same))
        return { accepted: true, previous };
    }
    throw new Error(
      `installation ${installationId}'s registrations kept racing; the registration may be retried`,
    );
  }

  async bury(caller: string, installationId: string, deviceId: string): Promise<void> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: installationKey(caller, installationId),
          UpdateExpression: "SET lstate = :tomb",
          ConditionExpression: "device_id = :d",
          ExpressionAttributeValues: { ":tomb": TOMBSTONE, ":d": deviceId },
        }),
      );
    } catch (err) {
      if (!isConditionFailure(err)) throw err;
    }
  }

  // One conditional update: the counter's rule, and the record still as it was read.
  private async advance(
    caller: string,
    installationId: string,
    counter: number,
    deviceId: string,
    seen: Installation | undefined,
    previous: string | undefined,
    same: boolean,
  ): Promise<boolean> {
    const newer = same ? { expression: "", names: {}, values: {} } : newerThanStored(counter);
    const pinned = seen ? "#hwm = :seenHwm AND lstate = :seenState" : "attribute_not_exists(pk)";
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: installationKey(caller, installationId),
          UpdateExpression: `SET #hwm = :counter, device_id = :d, lstate = :live, #caller = :caller, #inst = :inst${previous ? ", previous_device_id = :prev" : ""}${previous || same ? "" : " REMOVE previous_device_id"}`,
          ConditionExpression: newer.expression ? `(${newer.expression}) AND ${pinned}` : pinned,
          ExpressionAttributeNames: {
            "#hwm": HIGH_WATER_MARK,
            "#caller": "caller",
            "#inst": "installation_id",
            ...newer.names,
          },
          ExpressionAttributeValues: {
            ...newer.values,
            ...(seen ? { ":seenHwm": seen.hwm, ":seenState": seen.state } : {}),
            ":counter": counter,
            ":d": deviceId,
            ":live": "LIVE",
            ":caller": caller,
            ":inst": installationId,
            ...(previous ? { ":prev": previous } : {}),
          },
        }),
      );
      return true;
    } catch (err) {
      if (isConditionFailure(err)) return false;
      throw err;
    }
  }
}
