import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakePsp } from "@eo/psp";
import { startHttpFront } from "../../packages/local/src/runtime/http-front";
import { localRoutes } from "../../packages/local/src/stack/local-routes";

/**
 * The stack's own `/_local` routes about the PSP over a real HTTP front and a real fake PSP, without the emulators
 * they do not read; answers the routes' base URL and a stop.
 */
export async function pspLocalFront(psp: FakePsp): Promise<{ base: string; stop: () => Promise<void> }> {
  const routes = localRoutes({
    health: async () => ({ ok: true, services: {}, pids: {} }),
    pspCharges: () => psp.charges(),
    pspStats: () => psp.stats(),
    pspRedeliver: (reference) => psp.redeliverWebhooks(reference),
    sesEndpoint: "http://127.0.0.1:1",
    runJob: async () => undefined,
    jobNames: () => [],
  });
  const front: Server = await startHttpFront(0, [], routes);
  return {
    base: `http://127.0.0.1:${(front.address() as AddressInfo).port}/_local`,
    stop: () => new Promise<void>((r) => front.close(() => r())),
  };
}
