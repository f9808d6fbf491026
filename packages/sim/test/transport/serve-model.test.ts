import { DescribeStreamCommand, DynamoDBStreamsClient } from "@aws-sdk/client-dynamodb-streams";
import { afterEach, describe, expect, it } from "vitest";
import { StreamModel } from "../../src/streams/stream-model";
import { streamsModelHandler } from "../../src/streams/streams-model-handler";
import { installInProcessNet } from "../../src/transport/in-process-net";
import { serveModel } from "../../src/transport/serve-model";
import { signedRegion } from "../../src/transport/sim-transport";

describe("a model served as an emulator is", () => {
  let undo: (() => void) | undefined;
  afterEach(() => undo?.());

  it("reached by its endpoint, on a virtual port, by the SDK's default transport, per signed Region", async () => {
    // prepare
    undo = installInProcessNet();
    const clock = { now: () => 0 };
    const models: Record<string, StreamModel> = {
      "eu-west-1": new StreamModel({ clock, region: "eu-west-1" }),
      "eu-central-1": new StreamModel({ clock, region: "eu-central-1" }),
    };
    const arn = models["eu-central-1"]?.enable("consumers", "NEW_IMAGE") ?? "";
    const server = serveModel((req) => streamsModelHandler(models[signedRegion(req)] as StreamModel));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
    const endpoint = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    const client = (region: string) =>
      new DynamoDBStreamsClient({
        region,
        endpoint,
        credentials: { accessKeyId: "a", secretAccessKey: "b" },
      });
    // act
    const seen = await client("eu-central-1").send(new DescribeStreamCommand({ StreamArn: arn }));
    const elsewhere = client("eu-west-1").send(new DescribeStreamCommand({ StreamArn: arn }));
    // assess
    expect(seen.StreamDescription?.StreamViewType).toBe("NEW_IMAGE");
    await expect(elsewhere).rejects.toMatchObject({ name: "ResourceNotFoundException" });
    await new Promise((r) => server.close(r));
  });
});
