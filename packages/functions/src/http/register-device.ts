import {
  checkDeviceCaller,
  checkJsonContentType,
  deviceDeps,
  parseDeviceBody,
  registerDevice,
} from "@eo/core";
import { bodyOf, callerOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

/**
 * POST /devices: registers the caller's device token for push; the same token again is the same device, and a
 * token another caller held moves to this one. Nothing is written for a bad request or a token SNS refuses.
 */
export const handler = httpHandler("register-device", async (event) => {
  const caller = checkDeviceCaller(callerOf(event));
  checkJsonContentType(event.headers?.["content-type"]);
  const request = parseDeviceBody(bodyOf(event));
  const device = await registerDevice(deviceDeps(), caller, request);
  logger.info("device registered", { device_id: device.device_id, platform: device.platform });
  return { status: 201, body: { device_id: device.device_id } };
});
