export { MODEL_CREDENTIALS, modelSqsClient } from "./client";
export { SqsError } from "./errors";
export { sqsModelHandler } from "./handler";
export { SqsModel } from "./model";
export { counterIds, type MessagingModelOptions, type ModelTimers, type QueuedMessage } from "./options";
export { type ModelHttpHandler, modelHttpHandler } from "./transport";
