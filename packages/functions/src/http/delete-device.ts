import { checkDeviceCaller, checkNoBody, deleteDevice, deviceDeps, parseDeviceId } from "@eo/core";
import { bodyOf, callerOf, httpHandler } from "../shared/http-handler";
import { logger } from "../shared/observability";

/** DELETE /devices/{device_id}: the owner's device gets no more notifications (204); anyone else gets 404. */
export const handler = httpHandler("delete-device", async (event) => {
  const caller = checkDeviceCaller(callerOf(event));
  const deviceId = parseDeviceId(event.pathParameters?.device_id);
  checkNoBody(bodyOf(event));
  const { device, endpointRemoved } = await deleteDevice(deviceDeps(), caller, deviceId);
  if (endpointRemoved) logger.info("device deleted", { device_id: device.device_id });
  // Nothing routes to the endpoint any more; it is only left over at SNS.
  else logger.warn("device deleted; its SNS endpoint could not be", { device_id: device.device_id });
  return { status: 204 };
});
