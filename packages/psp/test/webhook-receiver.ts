import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One webhook as the receiver got it: the raw body is kept because the signature covers its bytes. */
export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  rawBody: string;
}

/** A local webhook endpoint that answers a scripted list of statuses, then 200 forever. */
export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  stop(): Promise<void>;
}

/** Starts a receiver on 127.0.0.1 that answers `statuses` in turn. */
export async function startWebhookReceiver(statuses: number[] = []): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const script = [...statuses];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, rawBody: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(script.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/psp`,
    received,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Waits `ms` of real time, for asserting that nothing more happens. */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
