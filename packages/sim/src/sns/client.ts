import { SNSClient, type SNSClientConfig } from "@aws-sdk/client-sns";
import { MODEL_CREDENTIALS } from "../sqs/client";
import { snsModelHandler } from "./handler";
import type { SnsModel } from "./model";

/** An SNSClient whose transport is the model: the SDK's own query serializer, XML parser and error classes. */
export function modelSnsClient(
  model: SnsModel,
  region = model.region,
  config: SNSClientConfig = {},
): SNSClient {
  return new SNSClient({
    region,
    credentials: MODEL_CREDENTIALS,
    ...config,
    requestHandler: snsModelHandler(model),
  });
}
