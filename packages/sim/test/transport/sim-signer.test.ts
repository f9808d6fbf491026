import { DynamoDBClient, ListTablesCommand } from "@aws-sdk/client-dynamodb";
import type { HttpHandlerOptions, HttpRequest, HttpResponse } from "@smithy/types";
import { afterEach, describe, expect, it } from "vitest";
import { makeFastProperties } from "../../src/transport/fast-properties";
import { installSimSigner } from "../../src/transport/sim-signer";
import { installSimTransport, type ModelHandler, signedRegion } from "../../src/transport/sim-transport";

/** A model that records each request it is sent and answers an empty table list. */
function recorder(seen: HttpRequest[]): ModelHandler {
  return {
    handle: async (request: HttpRequest, _options?: HttpHandlerOptions) => {
      seen.push(request);
      const response = { statusCode: 200, headers: {}, body: Buffer.from('{"TableNames":[]}') };
      return { response: response as unknown as HttpResponse };
    },
  };
}

const client = (region: string, endpoint: string, requestHandler?: ModelHandler) =>
  new DynamoDBClient({
    region,
    endpoint,
    credentials: { accessKeyId: "AKID", secretAccessKey: "secret" },
    ...(requestHandler ? { requestHandler } : {}),
  });

describe("the simulation's signer", () => {
  let undo: (() => void) | undefined;
  afterEach(() => undo?.());

  it("names the client's Region and date in the credential scope of a request to a model, with no signature", async () => {
    // prepare
    const seen: HttpRequest[] = [];
    undo = installSimTransport({ "dynamodb.sim": () => recorder(seen) });
    // act
    await client("eu-central-1", "http://dynamodb.sim").send(new ListTablesCommand({}));
    // assess
    const [request] = seen;
    expect(signedRegion(request as HttpRequest)).toBe("eu-central-1");
    expect(request?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKID\/\d{8}\/eu-central-1\/dynamodb\/aws4_request, .*Signature=sim$/,
    );
    expect(request?.headers["x-amz-date"]).toMatch(/^\d{8}T\d{6}Z$/);
  });

  it("signs a request to any other host with SigV4, as before", async () => {
    // prepare
    const seen: HttpRequest[] = [];
    undo = installSimSigner(() => false);
    const real = client("eu-west-1", "http://elsewhere.sim", recorder(seen));
    // act
    await real.send(new ListTablesCommand({}));
    // assess
    expect(seen[0]?.headers.authorization).toMatch(/Signature=[0-9a-f]{64}$/);
  });
});

describe("fast properties", () => {
  it("leaves the object as it was: the same properties, values and order", () => {
    // prepare
    const o: Record<string, unknown> = {};
    for (let i = 0; i < 60; i++) o[`k${i}`] = i;
    delete o.k3;
    const before = JSON.stringify(Object.entries(o));
    // act
    makeFastProperties(o);
    makeFastProperties(o);
    // assess
    expect(JSON.stringify(Object.entries(o))).toBe(before);
    expect(Object.getPrototypeOf(o)).toBe(Object.prototype);
  });
});
