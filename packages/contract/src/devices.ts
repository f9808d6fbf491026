import { z } from "zod";
import { DeviceId } from "./fields";

/** The body of `POST /devices`. */
export const DeviceRequest = z
  .object(
    {
      platform: z.enum(["apns", "fcm"], { error: 'platform must be "apns" or "fcm"' }),
      token: z
        .string({ error: "token must be 1 to 4096 printable characters without spaces" })
        .regex(/^[\x21-\x7e]{1,4096}$/, {
          error: "token must be 1 to 4096 printable characters without spaces",
        })
        .meta({ description: "The APNs or FCM device token." }),
    },
    { error: "the body must be a JSON object" },
  )
  .meta({ id: "DeviceRequest" });
export type DeviceRequest = z.infer<typeof DeviceRequest>;

/** 201: the device, the same one for the same token. */
export const DeviceCreated = z.object({ device_id: DeviceId }).meta({ id: "DeviceCreated" });
export type DeviceCreated = z.infer<typeof DeviceCreated>;
