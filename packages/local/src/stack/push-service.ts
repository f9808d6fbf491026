import { DynamoDeviceStore, type RegionRole } from "@eo/core";
import { type PushProvider, startPushProvider } from "../push/push-provider";
import { regionDocumentClient } from "../region/control-table";
import type { RegionFlags } from "../region/region-flags";
import type { LocalRouteSources } from "./local-routes";
import type { Emulators } from "./start-emulators";

/** The local push provider (SNS mobile push's stand-in, one for both Regions: one phone) and its inspection route. */
export interface PushService {
  provider: PushProvider;
  /** The handler variables that point SNS at it (both Regions' functions send through it). */
  env: Record<string, string>;
  routes: NonNullable<LocalRouteSources["extra"]>;
  stop(): Promise<void>;
}

/** Starts the push provider. `GET /_local/devices/{caller}` reads the devices of a Region that is up. */
export async function startPushService(
  emu: Emulators,
  flags: RegionFlags,
  avoidPorts: number[],
): Promise<PushService> {
  const provider = await startPushProvider({
    region: emu.regions.primary.region,
    port: Number(process.env.PUSH_PORT ?? 0),
    avoidPorts,
  });
  const up = (): RegionRole => (flags.isUp("primary") ? "primary" : "standby");
  return {
    provider,
    env: {
      AWS_ENDPOINT_URL_SNS: provider.url,
      PUSH_APNS_APP_ARN: provider.apps.apns,
      PUSH_FCM_APP_ARN: provider.apps.fcm,
      EMAIL_FROM: process.env.EMAIL_FROM ?? "receipts@effectively-once.local",
    },
    routes: [
      {
        method: "GET",
        pattern: /^\/_local\/devices\/([^/]+)$/,
        answer: async (m) => {
          const role = up();
          const store = new DynamoDeviceStore(
            regionDocumentClient(emu, role),
            emu.regions[role].consumerTable,
          );
          const devices = await store.list(decodeURIComponent(m[1] ?? ""));
          return { status: 200, body: provider.screenOf(devices.map((d) => d.endpoint_arn)) };
        },
      },
    ],
    stop: () => provider.stop(),
  };
}
