export { modelSqsClient, MODEL_CREDENTIALS } from "./client";
export { SqsError } from "./errors";
export { sqsModelHandler } from "./handler";
export {
  counterIds,
  type MessagingModelOptions,
  type ModelTimers,
  type QueuedMessage,
  SqsModel,
} from "./model";
export { type ModelHttpHandler, modelHttpHandler } from "./transport";
