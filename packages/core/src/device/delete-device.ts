import { Refusal } from "../payment/payment-errors";
import type { Device } from "./device";
import type { DeviceDeps } from "./device-deps";

/** What deleting a device did: the device, and whether its provider endpoint was deleted too. */
export interface DeletedDevice {
  device: Device;
  /** False when SNS failed to delete the endpoint: nothing routes to it any more, it is only left over. */
  endpointRemoved: boolean;
}

/**
 * Deletes the caller's device: its item and its token's pointer first (from then on no notification of the
 * caller's goes to it), then the provider endpoint. Another caller's device, or one already gone, is not found.
 */
export async function deleteDevice(
  deps: DeviceDeps,
  caller: string,
  deviceId: string,
): Promise<DeletedDevice> {
  // A lost transaction (a registration of the token at the same moment) is tried again from what is stored now.
  for (let attempt = 0; attempt < 3; attempt++) {
    const device = await deps.devices.get(caller, deviceId);
    if (!device) break;
    // The installation's record becomes a tombstone first: a resent registration of this counter, arriving after
    // the delete, must find it (branch M), and a crash before the removal leaves the device for a retry to delete.
    if (device.installation_id !== undefined)
      await deps.installations.bury(caller, device.installation_id, device.device_id);
    if (await deps.devices.remove(device)) {
      const endpointRemoved = await deps.endpoints.remove(device.endpoint_arn).then(
        () => true,
        () => false,
      );
      return { device, endpointRemoved };
    }
  }
  throw new Refusal("not-found", `no device ${deviceId}`);
}
