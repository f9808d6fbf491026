export { modelSnsClient } from "./client";
export type { Notification, SnsAttribute } from "./envelope";
export { SnsError } from "./errors";
export { snsModelHandler } from "./handler";
export { type PublishInput, SnsModel, type TopicDelivery } from "./model";
export type { PlatformApplication, PlatformEndpoint, PushDelivery } from "./platform";
export type { Subscription, Topic } from "./topics";
