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
      installation_id: z
        .string({ error: "installation_id must be 1 to 64 letters, digits, _ or -" })
        .regex(/^[A-Za-z0-9_-]{1,64}$/, { error: "installation_id must be 1 to 64 letters, digits, _ or -" })
        .optional()
        .meta({
          description:
            "Optional: the app installation's id, made at install and kept in its journal. With `counter`, a registration older than one the installation already made is refused (409 `stale-registration`), and the installation's earlier token stops getting notifications.",
        }),
      counter: z
        .number({ error: "counter must be a whole number from 0 up" })
        .int({ error: "counter must be a whole number from 0 up" })
        .min(0, { error: "counter must be a whole number from 0 up" })
        .max(Number.MAX_SAFE_INTEGER, { error: "counter must be a whole number from 0 up" })
        .optional()
        .meta({
          description:
            "The installation's journal counter for this registration: one counter per installation, never a clock. Sent with `installation_id`.",
        }),
    },
    { error: "the body must be a JSON object" },
  )
  .refine((b) => (b.installation_id === undefined) === (b.counter === undefined), {
    error: "installation_id and counter come together: send both or neither",
  })
  .meta({ id: "DeviceRequest" });
export type DeviceRequest = z.infer<typeof DeviceRequest>;

/** 201: the device, the same one for the same token. */
export const DeviceCreated = z.object({ device_id: DeviceId }).meta({ id: "DeviceCreated" });
export type DeviceCreated = z.infer<typeof DeviceCreated>;
