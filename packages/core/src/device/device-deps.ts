import type { Clock } from "../clock/clock";
import type { DeviceStore } from "./device-store";
import type { InstallationStore } from "./installation";
import type { PushEndpoints } from "./push-endpoints";

/** What registering and deleting a device run on. */
export interface DeviceDeps {
  devices: DeviceStore;
  endpoints: PushEndpoints;
  installations: InstallationStore;
  clock: Clock;
}
