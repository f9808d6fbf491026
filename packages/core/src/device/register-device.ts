import { SNSClient } from "@aws-sdk/client-sns";
import { documentClient } from "../aws/document-client";
import { type Clock, clock } from "../clock/clock";
import { loadConfig } from "../config/config";
import { type Device, type DeviceRequest, deviceIdOf } from "./device";
import { type DeviceStore, DynamoDeviceStore } from "./device-store";
import { type PushEndpoints, SnsPushEndpoints } from "./push-endpoints";

/** What registering a device runs on. */
export interface DeviceDeps {
  devices: DeviceStore;
  endpoints: PushEndpoints;
  clock: Clock;
}

/** Registers a caller's device token: the platform endpoint first, then the device item, both idempotent. */
export async function registerDevice(deps: DeviceDeps, caller: string, req: DeviceRequest): Promise<Device> {
  const endpointArn = await deps.endpoints.create(req.platform, req.token, caller);
  return deps.devices.putIfAbsent({
    caller,
    device_id: deviceIdOf(caller, req.platform, req.token),
    platform: req.platform,
    token: req.token,
    endpoint_arn: endpointArn,
    created_at: deps.clock.now(),
  });
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
