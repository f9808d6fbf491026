// The signature scheme is shared with the webhook handler, which must not depend on this fake.
export { type SignatureCheck, signWebhook, verifyWebhookSignature } from "@eo/core";
