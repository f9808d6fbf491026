import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/**
 * SES v2 as it refuses: a small server on 127.0.0.1 that answers SendEmail with SES's own error shape
 * (`x-amzn-ErrorType` and a JSON message, so the real SDK raises the real exception) for recipients whose
 * address carries a tag, and passes every other request to the local SES. aws-ses-v2-local accepts every
 * address, so this stands in for the refusals only AWS gives.
 *
 * Tags in the address's local part (`+tag`): `rejected` (MessageRejected), `paused` (SendingPausedException),
 * `suspended`, `mailfrom`, `bad`, `limit`, and counted ones that refuse the first n sends to that address and
 * then pass: `throttled2` (TooManyRequestsException, 429), `unavailable6` (503).
 */
export interface RefusingSes {
  url: string;
  /** Sends refused so far, per address. */
  refusals(to: string): number;
  stop(): Promise<void>;
}

const FOR_GOOD: Record<string, [number, string, string]> = {
  rejected: [
    400,
    "MessageRejected",
    "Email address is not verified. The following identities failed the check",
  ],
  paused: [400, "SendingPausedException", "Email sending is disabled for your entire Amazon SES account"],
  suspended: [400, "AccountSuspendedException", "The account has been suspended"],
  mailfrom: [400, "MailFromDomainNotVerifiedException", "The MAIL FROM domain is not verified"],
  bad: [400, "BadRequestException", "Illegal address"],
  limit: [400, "LimitExceededException", "Daily message quota exceeded"],
};
const COUNTED: Record<string, [number, string]> = {
  throttled: [429, "TooManyRequestsException"],
  unavailable: [503, "ServiceUnavailable"],
};

/** Starts the refusing SES in front of the local SES at `sesUrl`. */
export async function startRefusingSes(sesUrl: string): Promise<RefusingSes> {
  const refused = new Map<string, number>();
  const server = createServer((req, res) => void answer(req, res, sesUrl, refused));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    refusals: (to) => refused.get(to) ?? 0,
    stop: () => close(server),
  };
}

async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  sesUrl: string,
  refused: Map<string, number>,
) {
  let body = "";
  for await (const chunk of req) body += chunk;
  const to = String(JSON.parse(body || "{}").Destination?.ToAddresses?.[0] ?? "");
  const tag = /\+([a-z]+)(\d*)@/.exec(to);
  const seen = refused.get(to) ?? 0;
  const forGood = tag ? FOR_GOOD[tag[1] as string] : undefined;
  const counted = tag ? COUNTED[tag[1] as string] : undefined;
  if (forGood || (counted && seen < Number(tag?.[2] || 1))) {
    const [status, type, message] = forGood ?? [...(counted as [number, string]), "try again later"];
    refused.set(to, seen + 1);
    res.writeHead(status, { "content-type": "application/json", "x-amzn-errortype": type });
    res.end(JSON.stringify({ message }));
    return;
  }
  const passed = await fetch(`${sesUrl}${req.url}`, {
    method: req.method,
    headers: forwardable(req.headers),
    body,
  });
  res.writeHead(passed.status, { "content-type": "application/json" });
  res.end(await passed.text());
}

/** The request's headers as signed by the SDK, less the ones fetch sets itself. */
function forwardable(headers: IncomingMessage["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (typeof v === "string" && !["host", "content-length", "connection"].includes(k)) out[k] = v;
  return out;
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
