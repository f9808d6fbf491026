import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { UpdateCommand } from "@aws-sdk/lib-dynamodb";
import type { Clock } from "../clock/clock";

/**
 * A requests-per-second cap shared by every invocation: one counter item per second, incremented
 * only while below the cap. The resolver takes a token before each PSP replay, so replays after
 * an outage cannot eat the PSP rate limit that live payments need (Part 12).
 */
export class RateCap {
  constructor(
    private readonly db: DynamoDBDocumentClient,
    private readonly table: string,
    private readonly name: string,
    private readonly perSecond: number,
    private readonly clock: Clock,
  ) {}

  /** Waits until a token of the current second is ours, or gives up after `maxWaitMs`. */
  async take(maxWaitMs = 5_000): Promise<boolean> {
    const until = Date.now() + maxWaitMs;
    while (Date.now() <= until) {
      const second = Math.floor(this.clock.now() / 1000);
      if (await this.tryTake(second)) return true;
      await new Promise((r) => setTimeout(r, 1000 - (this.clock.now() % 1000) + 5));
    }
    return false;
  }

  private async tryTake(second: number): Promise<boolean> {
    try {
      await this.db.send(
        new UpdateCommand({
          TableName: this.table,
          Key: { id: `RATE#${this.name}#${second}` },
          UpdateExpression: "ADD used :one SET expiration = :exp",
          ConditionExpression: "attribute_not_exists(used) OR used < :cap",
          ExpressionAttributeValues: { ":one": 1, ":cap": this.perSecond, ":exp": second + 120 },
        }),
      );
      return true;
    } catch (err) {
      if ((err as Error).name === "ConditionalCheckFailedException") return false;
      throw err;
    }
  }
}
