import { DynamoDeviceStore } from "@eo/core";
import { regionDocumentClient } from "../region/control-table";
import type { SceneStage, StoryScene } from "./story-scenes";

/** Branch V: the app's resent registration of its old token (counter 41) arrives after the new one's (42). */
export const versionsFromOneCounter: StoryScene = {
  description: "the app's resent old registration arrives last: versions from one counter (Part 5)",
  env: { EO_TEST_UNSAFE_NO_VERSION_CHECK: "1" },
  outcome: "the resend (41) is refused with 409: the installation's high-water mark is 42, T2 stays",
  failure: "the resend lands last and undoes the newer registration: the phone's live token T2 is dropped",
  async play(s: SceneStage) {
    const phone = await installation(s, "V");
    await phone.register("T1", 41);
    await phone.register("T2", 42);
    const resent = (await phone.register("T1", 41)).status;
    const tokens = await phone.tokens();
    s.t.mark("R1", "phone", `the resend of T1 (41) arrived last: ${resent}; the caller's tokens: ${tokens}`);
    return {
      held: resent === 409 && tokens === "T2",
      said: `the resend answered ${resent}; tokens ${tokens}`,
    };
  },
};

/** Branch M: the registration is resent after the user deleted the device it made. */
export const conditionOnTheLocator: StoryScene = {
  description: "a registration resent after its device was deleted: condition on the locator (Part 5)",
  env: { EO_TEST_UNSAFE_CONDITION_ON_ITEM: "1" },
  outcome: "the resend finds the installation's tombstone and is refused; the device stays deleted",
  failure: "the resend conditions on the deleted device item, passes, and the device comes back",
  async play(s: SceneStage) {
    const phone = await installation(s, "M");
    const { deviceId } = await phone.register("T1", 41);
    const deleted = await phone.remove(deviceId);
    s.t.mark("R1", "phone", `the user deleted the device: ${deleted}`);
    const resent = (await phone.register("T1", 41)).status;
    const tokens = await phone.tokens();
    s.t.mark(
      "R1",
      "phone",
      `the registration resent after the delete: ${resent}; the caller's tokens: ${tokens || "none"}`,
    );
    return {
      held: resent === 409 && tokens === "",
      said: `the resend answered ${resent}; tokens ${tokens || "none"}`,
    };
  },
};

/** One app installation (I1) of a fresh caller: registers with its journal counter, deletes, lists its tokens. */
async function installation(s: SceneStage, name: string) {
  const caller = `buyer-${name}-${s.tag}`;
  const token = await s.api.token(caller);
  const auth = { authorization: `Bearer ${token}` };
  const consumerTable = s.stack.emulators.regions.primary.consumerTable;
  return {
    async register(fcmToken: string, counter: number): Promise<{ status: number; deviceId: string }> {
      const body = { platform: "fcm", token: fcmToken, installation_id: "I1", counter };
      const res = await s.api.send("R1", "POST", "/devices", auth, body);
      s.t.mark("R1", "phone", `POST /devices ${fcmToken} counter ${counter}: ${res.status}`);
      return { status: res.status, deviceId: String(res.body.device_id ?? "") };
    },
    async remove(deviceId: string): Promise<number> {
      return (await s.api.send("R1", "DELETE", `/devices/${deviceId}`, auth)).status;
    },
    async tokens(): Promise<string> {
      // The process's client for the primary's database (control-table.ts keeps one): not this scene's to destroy.
      const db = regionDocumentClient(s.stack.emulators, "primary");
      const devices = await new DynamoDeviceStore(db, consumerTable).list(caller);
      return devices
        .map((d) => d.token)
        .sort()
        .join(", ");
    },
  };
}
