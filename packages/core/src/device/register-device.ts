import { SNSClient } from "@aws-sdk/client-sns";
import { documentClient } from "../aws/document-client";
import { clock } from "../clock/clock";
import { loadConfig } from "../config/config";
import { Refusal } from "../payment/payment-errors";
import { deleteDevice } from "./delete-device";
import { type Device, type DeviceRequest, deviceIdOf, type TokenHolder } from "./device";
import type { DeviceDeps } from "./device-deps";
import { DynamoDeviceStore, type InstallationGuard } from "./device-store";
import { DynamoInstallations } from "./dynamo-installations";
import { type Installation, installationKey, isStale } from "./installation";
import { type EnsuredEndpoint, SnsPushEndpoints } from "./push-endpoints";

export type { DeviceDeps } from "./device-deps";

/**
 * Registers a caller's device token: the platform endpoint first (taken over if another caller held the token),
 * then the device item and the token's pointer, moving the token off its previous holder in the same
 * transaction, so that from then on only this caller's notifications reach the phone. The same token again
 * is the same device. With an installation id and its counter, a registration older than the installation's
 * record is refused before anything is written (branches V and M), and a newer one retires the earlier token.
 */
export async function registerDevice(deps: DeviceDeps, caller: string, req: DeviceRequest): Promise<Device> {
  const deviceId = deviceIdOf(caller, req.platform, req.token);
  const installation = req.installation_id;
  const counter = req.counter;
  if (installation !== undefined && counter !== undefined) {
    // Read first, so that a stale registration touches neither SNS nor our tables.
    const current = await deps.installations.read(caller, installation);
    if (isStale(current, counter, deviceId)) throw staleRegistration(installation, counter, current);
  }
  const endpoint = await deps.endpoints.ensure(req.platform, req.token, caller);
  if (installation === undefined || counter === undefined) return storeDevice(deps, caller, req, endpoint);
  const acceptance = await deps.installations.accept(caller, installation, counter, deviceId);
  if (!acceptance.accepted) throw staleRegistration(installation, counter, acceptance.current);
  const guard = { key: installationKey(caller, installation), counter };
  const device = await storeDevice(deps, caller, req, endpoint, guard);
  if (!device)
    throw staleRegistration(installation, counter, await deps.installations.read(caller, installation));
  // The installation's earlier token (the app rotated it): from now on nothing goes to it.
  if (acceptance.previous && acceptance.previous !== deviceId)
    await deleteDevice(deps, caller, acceptance.previous).catch(ignoreNotFound);
  return device;
}

function staleRegistration(
  installation: string,
  counter: number,
  current: Installation | undefined,
): Refusal {
  const deleted = current?.state === "TOMBSTONE" ? " and then deleted that device" : "";
  return new Refusal(
    "stale-registration",
    `installation ${installation} already registered with counter ${current?.hwm}${deleted}; counter ${counter} is not above it, so nothing was written`,
  );
}

// A retry that finds the earlier device already retired has nothing left to do.
function ignoreNotFound(err: unknown): void {
  if (!(err instanceof Refusal && err.kind === "not-found")) throw err;
}

// The device item and its token's pointer, after the platform endpoint.
async function storeDevice(
  deps: DeviceDeps,
  caller: string,
  req: DeviceRequest,
  endpoint: EnsuredEndpoint,
): Promise<Device>;
async function storeDevice(
  deps: DeviceDeps,
  caller: string,
  req: DeviceRequest,
  endpoint: EnsuredEndpoint,
  guard: InstallationGuard,
): Promise<Device | undefined>;
// Undefined when the installation's record moved on (a newer registration or a delete) while this one ran.
async function storeDevice(
  deps: DeviceDeps,
  caller: string,
  req: DeviceRequest,
  endpoint: EnsuredEndpoint,
  guard?: InstallationGuard,
): Promise<Device | undefined> {
  const device: Device = {
    caller,
    device_id: deviceIdOf(caller, req.platform, req.token),
    platform: req.platform,
    token: req.token,
    endpoint_arn: endpoint.arn,
    created_at: deps.clock.now(),
    ...(req.installation_id !== undefined
      ? { installation_id: req.installation_id, counter: req.counter }
      : {}),
  };
  // A lost compare-and-set means another registration of the token moved it meanwhile: read again and move it on.
  for (let attempt = 0; attempt < 3; attempt++) {
    const holder = await deps.devices.holderOf(req.platform, req.token);
    const stored =
      holder?.device_id === device.device_id ? await deps.devices.get(caller, device.device_id) : undefined;
    if (stored && sameRegistration(stored, device)) return stored;
    const next = { ...device, created_at: stored?.created_at ?? device.created_at };
    if (await deps.devices.claim(next, holder, holder ?? legacyHolder(endpoint, req), guard)) return next;
    if (guard && (await recordMovedOn(deps, caller, req, guard))) return undefined;
  }
  throw new Error(
    `the token of device ${device.device_id} kept changing hands; the registration may be retried`,
  );
}

// Whether the installation's record no longer names this registration (the transaction's check failed on it).
async function recordMovedOn(deps: DeviceDeps, caller: string, req: DeviceRequest, guard: InstallationGuard) {
  const current = await deps.installations.read(caller, String(req.installation_id));
  return (
    isStale(current, guard.counter, deviceIdOf(caller, req.platform, req.token)) ||
    current?.hwm !== guard.counter
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
