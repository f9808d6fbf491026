import { DescribeStreamCommand, DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import { afterEach, describe, expect, it } from "vitest";
import { StreamModel } from "../../src/streams/stream-model";
import { streamsModelHandler } from "../../src/streams/streams-model-handler";
import { installSimTransport, signedRegion } from "../../src/transport/sim-transport";

describe("the simulation's transport", () => {
  let undo: (() => void) | undefined;
  afterEach(() => undo?.());

  it("answers a client built as production builds it (endpoint only) from the model of the Region it signed for", async () => {
    // prepare
    const clock = { now: () => 0 };
    const models = {
      "eu-west-1": new StreamModel({ clock, region: "eu-west-1" }),
      "eu-central-1": new StreamModel({ clock, region: "eu-central-1" }),
    };
    const primaryArn = models["eu-west-1"].enable("ledger", "NEW_AND_OLD_IMAGES");
    models["eu-central-1"].enable("ledger", "NEW_AND_OLD_IMAGES");
    undo = installSimTransport({
      "streams.dynamodb.sim": (request) =>
        streamsModelHandler(models[signedRegion(request) as keyof typeof models]),
    });
    const client = (region: string) =>
      new DynamoDBStreamsClient({
        region,
        endpoint: "http://streams.dynamodb.sim",
        credentials: { accessKeyId: "a", secretAccessKey: "b" },
      });
    // act
    const inPrimary = await client("eu-west-1").send(new DescribeStreamCommand({ StreamArn: primaryArn }));
    const inStandby = client("eu-central-1").send(new DescribeStreamCommand({ StreamArn: primaryArn }));
    // assess
    expect(inPrimary.StreamDescription?.TableName).toBe("ledger");
    await expect(inStandby).rejects.toMatchObject({ name: "ResourceNotFoundException" });
  });
});
