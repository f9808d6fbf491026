import { SNSClient } from "@aws-sdk/client-sns";
import { documentClient } from "../aws/document-client";
import { type Clock, clock } from "../clock/clock";
import { loadConfig } from "../config/config";
import { type Device, type DeviceRequest, deviceIdOf, type TokenHolder } from "./device";
import { Refusal } from "../payment/payment-errors";
import { deleteDevice } from "./delete-device";
import { type DeviceStore, DynamoDeviceStore } from "./device-store";
import { DynamoInstallations } from "./dynamo-installations";
import type { InstallationStore } from "./installation";
import { type EnsuredEndpoint, type PushEndpoints, SnsPushEndpoints } from "./push-endpoints";

/** What registering a device runs on. */
export interface DeviceDeps {
  devices: DeviceStore;
  endpoints: PushEndpoints;
  installations: InstallationStore;
  clock: Clock;
}

/**
 * Registers a caller's device token: the platform endpoint first (taken over if another caller held the token),
 * then the device item and the token's pointer, moving the token off its previous holder in the same
 * transaction, so that from then on only this caller's notifications reach the phone. The same token again
 * is the same device.
 */
export async function registerDevice(deps: DeviceDeps, caller: string, req: DeviceRequest): Promise<Device> {
  if (req.installation_id === undefined || req.counter === undefined) return storeDevice(deps, caller, req);
  const deviceId = deviceIdOf(caller, req.platform, req.token);
  const acceptance = await deps.installations.accept(caller, req.installation_id, req.counter, deviceId);
  if (!acceptance.accepted) {
    const c = acceptance.current;
    throw new Refusal(
      "stale-registration",
      `installation ${req.installation_id} already registered with counter ${c?.hwm}${c?.state === "TOMBSTONE" ? " and then deleted that device" : ""}; counter ${req.counter} is not above it, so nothing was written`,
    );
  }
  const device = await storeDevice(deps, caller, req);
  // The installation's earlier token (the app rotated it): from now on nothing goes to it.
  if (acceptance.previous) await deleteDevice(deps, caller, acceptance.previous).catch(ignoreNotFound);
  return device;
}

// A retry that finds the earlier device already retired has nothing left to do.
function ignoreNotFound(err: unknown): void {
  if (!(err instanceof Refusal && err.kind === "not-found")) throw err;
}

// The device item and its token's pointer, after the platform endpoint.
async function storeDevice(deps: DeviceDeps, caller: string, req: DeviceRequest): Promise<Device> {
  const endpoint = await deps.endpoints.ensure(req.platform, req.token, caller);
  const device: Device = {
    caller,
    device_id: deviceIdOf(caller, req.platform, req.token),
    platform: req.platform,
    token: req.token,
    endpoint_arn: endpoint.arn,
    created_at: deps.clock.now(),
    ...(req.installation_id !== undefined ? { installation_id: req.installation_id, counter: req.counter } : {}),
  };
  // A lost compare-and-set means another registration of the token moved it meanwhile: read again and move it on.
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await deps.devices.holderOf(req.platform, req.token);
    const stored =
      holder?.device_id === device.device_id ? await deps.devices.get(caller, device.device_id) : undefined;
    if (stored && sameRegistration(stored, device)) return stored;
    const next = { ...device, created_at: stored?.created_at ?? device.created_at };
    if (await deps.devices.claim(next, holder, holder ?? legacyHolder(endpoint, req))) return next;
  }
  throw new Error(
    `the token of device ${device.device_id} kept changing hands; the registration may be retried`,
  );
}

// The stored device is this registration's when it has the same endpoint and the same installation counter.
function sameRegistration(stored: Device, device: Device): boolean {
  return (
    stored.endpoint_arn === device.endpoint_arn &&
    stored.installation_id === device.installation_id &&
    stored.counter === device.counter
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
    installations: new DynamoInstallations(documentClient(), loadConfig(env).consumerTable),
    clock,
  };
  return deps;
}
