import { SQSClient, type SQSClientConfig } from "@aws-sdk/client-sqs";
import { sqsModelHandler } from "./handler";
import type { SqsModel } from "./model";

/** The credentials the model clients sign with: the model checks none (it has no IAM). */
export const MODEL_CREDENTIALS = { accessKeyId: "AKIDMODEL", secretAccessKey: "model-secret" };

/** An SQSClient whose transport is the model: the SDK's own serializers, deserializers and error classes. */
export function modelSqsClient(
  model: SqsModel,
  region = model.region,
  config: SQSClientConfig = {},
): SQSClient {
  return new SQSClient({
    region,
    credentials: MODEL_CREDENTIALS,
    ...config,
    requestHandler: sqsModelHandler(model),
  });
}
