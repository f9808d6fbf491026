import { type DynamoDBDocumentClient, GetCommand, TransactWriteCommand } from "@aws-sdk/lib-dynamodb";
import { cancellationCodes } from "../aws/document-client";
import type { ItemKey } from "../version/versioned-store";
import { type Locator, type LocatorStore, type PutOutcome, TOMBSTONE } from "./locator";
import { unsafeConditionOnItem } from "./locator-test-switches";

type TransactItems = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]["TransactItems"]>;

// The locator is live at `where`: the condition every move and delete carries.
const LIVE_AT = "#state = :live AND #wpk = :wpk AND #wsk = :wsk";
const NAMES = { "#state": "lstate", "#wpk": "where_pk", "#wsk": "where_sk" };
const liveAt = (where: ItemKey) => ({ ":live": "LIVE", ":wpk": where.pk, ":wsk": where.sk });

/** Locators and their items on one DynamoDB table; every change to both is one transaction. */
export class DynamoLocatorStore implements LocatorStore {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
  ) {}

  async putOnce(locator: ItemKey, where: ItemKey, item: Record<string, unknown>): Promise<PutOutcome> {
    const onItem = unsafeConditionOnItem();
    const stored = await this.transact([
      {
        Put: {
          TableName: this.table,
          Item: { ...locator, lstate: "LIVE", where_pk: where.pk, where_sk: where.sk },
          ...(onItem ? {} : { ConditionExpression: "attribute_not_exists(pk)" }),
        },
      },
      {
        Put: {
          TableName: this.table,
          Item: { ...item, ...where },
          ...(onItem ? { ConditionExpression: "attribute_not_exists(pk)" } : {}),
        },
      },
    ]);
    if (stored) return { stored: true };
    const found = await this.read(locator);
    // The item was there although the locator was not: only the unsafe switch's condition gets here.
    return { stored: false, locator: found ?? { key: locator, state: "LIVE", where } };
  }

  async move(locator: ItemKey, from: ItemKey, to: ItemKey): Promise<boolean> {
    if (from.pk === to.pk && from.sk === to.sk) throw new RangeError("a move needs another place to go to");
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: from, ConsistentRead: true }),
    );
    if (!out.Item) return false;
    return this.transact([
      {
        Update: {
          TableName: this.table,
          Key: locator,
          UpdateExpression: "SET #wpk = :tpk, #wsk = :tsk",
          ConditionExpression: LIVE_AT,
          ExpressionAttributeNames: NAMES,
          ExpressionAttributeValues: { ...liveAt(from), ":tpk": to.pk, ":tsk": to.sk },
        },
      },
      { Delete: { TableName: this.table, Key: from, ConditionExpression: "attribute_exists(pk)" } },
      {
        Put: {
          TableName: this.table,
          Item: { ...out.Item, ...to },
          ConditionExpression: "attribute_not_exists(pk)",
        },
      },
    ]);
  }

  async remove(locator: ItemKey): Promise<boolean> {
    const found = await this.read(locator);
    if (found?.state !== "LIVE" || !found.where) return false;
    // The locator stays, as a tombstone: a retry's "put if absent" after the delete still finds it.
    return this.transact([
      {
        Update: {
          TableName: this.table,
          Key: locator,
          UpdateExpression: "SET #state = :tomb REMOVE #wpk, #wsk",
          ConditionExpression: LIVE_AT,
          ExpressionAttributeNames: NAMES,
          ExpressionAttributeValues: { ...liveAt(found.where), ":tomb": TOMBSTONE },
        },
      },
      { Delete: { TableName: this.table, Key: found.where } },
    ]);
  }

  async read(locator: ItemKey): Promise<Locator | undefined> {
    const out = await this.db.send(
      new GetCommand({ TableName: this.table, Key: locator, ConsistentRead: true }),
    );
    const i = out.Item;
    if (!i) return undefined;
    const where = i.where_pk ? { pk: String(i.where_pk), sk: String(i.where_sk) } : undefined;
    return { key: locator, state: i.lstate === TOMBSTONE ? TOMBSTONE : "LIVE", ...(where ? { where } : {}) };
  }

  private async transact(items: TransactItems): Promise<boolean> {
    try {
      await this.db.send(new TransactWriteCommand({ TransactItems: items }));
      return true;
    } catch (err) {
      // A failed condition is an answer; a transaction conflict or anything else is not, and goes up.
      if (cancellationCodes(err).includes("ConditionalCheckFailed")) return false;
      throw err;
    }
  }
}
