import { SESv2Client, type SESv2ClientConfig } from "@aws-sdk/client-sesv2";
import { MODEL_CREDENTIALS } from "../sqs/client";
import { sesModelHandler } from "./handler";
import type { SesModel } from "./model";

/** An SESv2Client whose transport is the model: the SDK's own REST-JSON serializer and error classes. */
export function modelSesClient(
  model: SesModel,
  region = model.region,
  config: SESv2ClientConfig = {},
): SESv2Client {
  return new SESv2Client({
    region,
    credentials: MODEL_CREDENTIALS,
    ...config,
    requestHandler: sesModelHandler(model),
  });
}
