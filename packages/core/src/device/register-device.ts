import { SNSClient } from "@aws-sdk/client-sns";
import { documentClient } from "../aws/document-client";
import { type Clock, clock } from "../clock/clock";
import { loadConfig } from "../config/config";
import { type Device, type DeviceRequest, deviceIdOf, type TokenHolder } from "./device";
import { type DeviceStore, DynamoDeviceStore } from "./device-store";
import { type EnsuredEndpoint, type PushEndpoints, SnsPushEndpoints } from "./push-endpoints";

/** What registering a device runs on. */
export interface DeviceDeps {
  devices: DeviceStore;
  endpoints: PushEndpoints;
  clock: Clock;
}

/**
 * Registers a caller's device token: the platform endpoint first (taken over if another caller held the token),
 * then the device item and the token's pointer, moving the token off its previous holder in the same
 * transaction, so that from then on only this caller's notifications reach the phone. The same token again
 * is the same device.
 */
export async function registerDevice(deps: DeviceDeps, caller: string, req: DeviceRequest): Promise<Device> {
  const endpoint = await deps.endpoints.ensure(req.platform, req.token, caller);
  const device: Device = {
    caller,
    device_id: deviceIdOf(caller, req.platform, req.token),
    platform: req.platform,
    token: req.token,
    endpoint_arn: endpoint.arn,
    created_at: deps.clock.now(),
  };
  // A lost compare-and-set means another registration of the token moved it meanwhile: read again and move it on.
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await deps.devices.holderOf(req.platform, req.token);
    const stored =
      holder?.device_id === device.device_id ? await deps.devices.get(caller, device.device_id) : undefined;
    if (stored?.endpoint_arn === device.endpoint_arn) return stored;
    const next = { ...device, created_at: stored?.created_at ?? device.created_at };
    if (await deps.devices.claim(next, holder, holder ?? legacyHolder(endpoint, req))) return next;
  }
  throw new Error(
    `the token of device ${device.device_id} kept changing hands; the registration may be retried`,
  );
}

// A device registered before token pointers existed has none; the endpoint's previous owner names it.
function legacyHolder(endpoint: EnsuredEndpoint, req: DeviceRequest): TokenHolder | undefined {
  const owner = endpoint.previousOwner;
  return owner ? { caller: owner, device_id: deviceIdOf(owner, req.platform, req.token) } : undefined;
}

let deps: DeviceDeps | undefined;

/** The device ports on the consumer table and SNS, built once per process from the environment. */
export function deviceDeps(env: NodeJS.ProcessEnv = process.env): DeviceDeps {
  deps ??= {
    devices: new DynamoDeviceStore(documentClient(), loadConfig(env).consumerTable),
    endpoints: new SnsPushEndpoints(new SNSClient({ maxAttempts: 3 }), {
      apns: env.PUSH_APNS_APP_ARN,
      fcm: env.PUSH_FCM_APP_ARN,
    }),
    clock,
  };
  return deps;
}
