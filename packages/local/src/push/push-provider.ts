import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { DeviceScreen, mergeScreens } from "./device-screen";
import { refuseTestToken, takePublishFault } from "./push-faults";
import { deliveryOf, type SnsPlatform } from "./push-payload";
import {
  entriesXml,
  errorXml,
  okXml,
  parseQuery,
  type QueryRequest,
  readEntries,
  required,
  SnsFault,
} from "./sns-query";

interface Endpoint {
  arn: string;
  app: string;
  platform: SnsPlatform;
  token: string;
  attributes: Record<string, string>;
  screen: DeviceScreen;
}

/** The running stand-in for SNS mobile push (fauxqs has none): the SNS calls the worker makes, and the phones. */
export interface PushProvider {
  url: string;
  apps: { apns: string; fcm: string };
  /** The caller's screen over the given endpoints, per the contract's `GET /_local/devices/{caller}`. */
  screenOf(endpointArns: string[]): ReturnType<typeof mergeScreens>;
  /** True while the server listens. */
  healthy(): boolean;
  stop(): Promise<void>;
}

/**
 * Starts a local SNS query-API server on 127.0.0.1 that answers CreatePlatformEndpoint, Publish (TargetArn),
 * Get/SetEndpointAttributes and DeleteEndpoint for two platform applications (APNs sandbox and FCM), and keeps
 * each endpoint's screen. Point the SNS client at it with AWS_ENDPOINT_URL_SNS.
 */
export async function startPushProvider(opts: {
  region: string;
  port?: number;
  avoidPorts?: number[];
}): Promise<PushProvider> {
  const account = "000000000000";
  const appArn = (platform: SnsPlatform, name: string) =>
    `arn:aws:sns:${opts.region}:${account}:app/${platform}/${name}`;
  const apps = {
    apns: appArn("APNS_SANDBOX", "effectively-once-local-apns"),
    fcm: appArn("GCM", "effectively-once-local-fcm"),
  };
  const state = new PushState(new Set(Object.values(apps)));
  const server = await listen(
    () => createServer((req, res) => void serve(state, req, res)),
    opts.port ?? 0,
    opts.avoidPorts ?? [],
  );
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    apps,
    screenOf: (arns) => mergeScreens(arns.flatMap((a) => state.screen(a) ?? [])),
    healthy: () => server.listening,
    stop: () => closeServer(server),
  };
}

class PushState {
  private readonly endpoints = new Map<string, Endpoint>();

  constructor(private readonly apps: Set<string>) {}

  answer(q: QueryRequest): string {
    const p = q.params;
    switch (q.action) {
      case "CreatePlatformEndpoint":
        return okXml(
          q.action,
          `<EndpointArn>${this.create(required(p, "PlatformApplicationArn"), required(p, "Token"), p)}</EndpointArn>`,
        );
      case "Publish":
        return okXml(q.action, `<MessageId>${this.publish(p)}</MessageId>`);
      case "GetEndpointAttributes":
        return okXml(
          q.action,
          `<Attributes>${entriesXml(this.find(required(p, "EndpointArn")).attributes)}</Attributes>`,
        );
      case "SetEndpointAttributes": {
        const endpoint = this.find(required(p, "EndpointArn"));
        Object.assign(endpoint.attributes, readEntries(p, "Attributes", "key", "value"));
        // As SNS: a new Token attribute is the endpoint's token from now on.
        endpoint.token = endpoint.attributes.Token ?? endpoint.token;
        return okXml(q.action, "");
      }
      case "DeleteEndpoint":
        this.endpoints.delete(required(p, "EndpointArn"));
        return okXml(q.action, "");
      default:
        throw new SnsFault(400, "InvalidAction", `the local push provider does not support ${q.action}`);
    }
  }

  screen(arn: string): ReturnType<DeviceScreen["view"]> | undefined {
    return this.endpoints.get(arn)?.screen.view();
  }

  /** As SNS: the same token with the same attributes is the same endpoint; with other attributes, an error. */
  private create(app: string, token: string, p: URLSearchParams): string {
    if (!this.apps.has(app)) throw new SnsFault(404, "NotFound", "PlatformApplication does not exist");
    refuseTestToken(token);
    const attributes: Record<string, string> = {
      Enabled: "true",
      Token: token,
      ...readEntries(p, "Attributes", "key", "value"),
    };
    const userData = p.get("CustomUserData");
    if (userData) attributes.CustomUserData = userData;
    const existing = [...this.endpoints.values()].find((e) => e.app === app && e.token === token);
    if (existing) {
      if ((existing.attributes.CustomUserData ?? "") !== (userData ?? "")) {
        throw new SnsFault(
          400,
          "InvalidParameter",
          `Invalid parameter: Token Reason: Endpoint ${existing.arn} already exists with the same Token, but different attributes.`,
        );
      }
      return existing.arn;
    }
    const platform = app.split(":app/")[1]?.split("/")[0] as SnsPlatform;
    const arn = `${app.replace(":app/", ":endpoint/")}/${randomUUID()}`;
    this.endpoints.set(arn, { arn, app, platform, token, attributes, screen: new DeviceScreen() });
    return arn;
  }

  private publish(p: URLSearchParams): string {
    if (p.get("TopicArn") || p.get("PhoneNumber"))
      throw new SnsFault(400, "InvalidParameter", "the local push provider only publishes to TargetArn");
    const endpoint = this.find(required(p, "TargetArn"));
    if (endpoint.attributes.Enabled !== "true")
      throw new SnsFault(400, "EndpointDisabled", "Endpoint is disabled");
    takePublishFault(endpoint.attributes);
    const attrs = readEntries(p, "MessageAttributes", "Name", "Value.StringValue");
    endpoint.screen.deliver(
      deliveryOf(endpoint.platform, required(p, "Message"), p.get("MessageStructure"), attrs),
    );
    return randomUUID();
  }

  private find(arn: string): Endpoint {
    const e = this.endpoints.get(arn);
    if (!e) throw new SnsFault(404, "NotFound", "Endpoint does not exist");
    return e;
  }
}

async function serve(state: PushState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = "";
  for await (const chunk of req) body += chunk;
  try {
    if (req.method !== "POST") throw new SnsFault(400, "InvalidAction", "SNS takes POST");
    const xml = state.answer(parseQuery(body));
    res.writeHead(200, { "content-type": "text/xml" }).end(xml);
  } catch (err) {
    const fault =
      err instanceof SnsFault
        ? err
        : new SnsFault(500, "InternalError", String((err as Error)?.message ?? err));
    res.writeHead(fault.status, { "content-type": "text/xml" }).end(errorXml(fault));
  }
}

/**
 * Listens on `port`, or on a free one that is not in `avoid`: the stack picks its API port before binding it,
 * so a port the kernel hands out now may be one the stack is about to use.
 */
async function listen(make: () => Server, port: number, avoid: number[]): Promise<Server> {
  for (let attempt = 0; ; attempt++) {
    const server = make();
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => resolve());
    });
    const bound = (server.address() as { port: number }).port;
    if (port !== 0 || !avoid.includes(bound) || attempt >= 10) return server;
    await closeServer(server);
  }
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
