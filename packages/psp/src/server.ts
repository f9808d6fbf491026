import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createContext, type PspContext } from "./context";
import { type FakePsp, type FakePspOptions, resolveOptions } from "./options";
import { handleRequest } from "./router";
import { settleDue } from "./stripe/due-changes";
import { dashboardRefund } from "./stripe/refund-create";
import { failRefund, topUpBalance } from "./stripe/refund-life";
import { seedIntents } from "./stripe/seed-intents";

// Loopback only: the fake PSP has no authentication worth the name and must never be reachable from outside.
const HOST = "127.0.0.1";

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, HOST, () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    // An error here only means the server was already closed, which is what stop() wants anyway.
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

// How often, in real time, the PSP looks for changes (intents, refunds) that its clock has made due (a clock moved by a test).
// PSP_SETTLE_POLL_MS: the simulation looks less often; each look is an event of its virtual time.
const settlePollMs = () => Number(process.env.PSP_SETTLE_POLL_MS ?? 50);

function facade(ctx: PspContext, server: Server, port: number): FakePsp {
  const poll = setInterval(() => settleDue(ctx), settlePollMs());
  poll.unref();
  return {
    url: `http://${HOST}:${port}`,
    port,
    charges: () => ctx.ledger.succeededCharges(),
    refunds: () => ctx.ledger.refunds(),
    requests: () => ctx.requestCount,
    requestLog: () => [...ctx.requestLog],
    setWebhookUrl: (url) => ctx.webhooks.setUrl(url),
    webhookDeliveries: () => ctx.webhooks.deliveries(),
    webhooksPending: () => ctx.webhooks.pending(),
    webhookEvents: () => ctx.webhooks.events(),
    redeliverWebhooks: (reference) => ctx.webhooks.redeliver(reference),
    seedIntents: (seed) => seedIntents(ctx, seed),
    settleDue: () => settleDue(ctx),
    topUpBalance: () => topUpBalance(ctx),
    dashboardRefund: (id) => dashboardRefund(ctx, id),
    failRefund: (id, reason) => failRefund(ctx, id, reason),
    stats: () => ctx.stats.snapshot(),
    async stop() {
      clearInterval(poll);
      ctx.webhooks.stop();
      ctx.sleeper.cancelAll();
      await close(server);
    },
  };
}

/** Starts a Stripe-like fake PSP on 127.0.0.1 and resolves once it is listening. */
export async function startFakePsp(options: FakePspOptions): Promise<FakePsp> {
  const ctx = createContext(resolveOptions(options));
  const server = createServer((req, res) => void handleRequest(ctx, req, res));
  const port = await listen(server, ctx.opts.port);
  return facade(ctx, server, port);
}
