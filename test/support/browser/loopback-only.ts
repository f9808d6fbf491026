import type { CdpPipe } from "./cdp-pipe";

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** Whether a URL the page asked for stays on this machine (loopback, or inline `data:`/`blob:`/`about:`). */
export function staysLocal(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return ["data:", "blob:", "about:"].includes(protocol) || LOOPBACK.has(hostname);
}

/**
 * Takes the tab off the network, as a laptop with no connection: every request it makes is recorded in
 * `requested`, those to loopback go through, and every other one fails as if the network were down. `replace`
 * answers one loopback URL with other HTML instead (to load a variant of a served page at the same address).
 */
export async function keepOnLoopback(
  cdp: CdpPipe,
  sessionId: string,
  requested: string[],
  replace?: { url: string; html: string },
): Promise<void> {
  cdp.on("Fetch.requestPaused", sessionId, (params) => {
    const { requestId, request } = params as { requestId: string; request: { url: string } };
    requested.push(request.url);
    // The tab may be closing while a request is paused; its answer then has nowhere to go.
    const send = (method: string, extra: Record<string, unknown> = {}) =>
      cdp.send(method, { requestId, ...extra }, sessionId).catch(() => undefined);
    if (!staysLocal(request.url))
      return void send("Fetch.failRequest", { errorReason: "InternetDisconnected" });
    if (request.url !== replace?.url) return void send("Fetch.continueRequest");
    void send("Fetch.fulfillRequest", {
      responseCode: 200,
      responseHeaders: [{ name: "content-type", value: "text/html; charset=utf-8" }],
      body: Buffer.from(replace.html, "utf8").toString("base64"),
    });
  });
  await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*" }] }, sessionId);
}
