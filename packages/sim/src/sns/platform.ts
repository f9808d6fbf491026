import { endpointDisabled, invalidParameter, notFound, SnsError, snsUnsupported } from "./errors";

/** A platform application (APNs, FCM, ...): its ARN names the platform. */
export interface PlatformApplication {
  arn: string;
  platform: string;
  name: string;
  attributes: Record<string, string>;
}

/** A device endpoint under a platform application. */
export interface PlatformEndpoint {
  arn: string;
  app: PlatformApplication;
  attributes: Record<string, string>;
}

/** A push SNS accepted for a device: recorded, never sent. */
export interface PushDelivery {
  messageId: string;
  endpointArn: string;
  platform: string;
  token: string;
  /** What the platform would get: the platform's key of a MessageStructure=json message, else the message. */
  payload: string;
  attributes: Record<string, string>;
  at: number;
}

const PLATFORMS = new Set(["APNS", "APNS_SANDBOX", "GCM", "ADM", "BAIDU", "MPNS", "WNS"]);

/** SNS mobile push's token registry: platform applications, their endpoints, and faults a test arms. */
export class PlatformEndpoints {
  private readonly apps = new Map<string, PlatformApplication>();
  private readonly endpoints = new Map<string, PlatformEndpoint>();
  private readonly faults = new Map<string, { code: string; times: number }>();

  constructor(
    private readonly arnPrefix: string,
    private readonly ids: () => string,
  ) {}

  /** CreatePlatformApplication: the same name and platform answer the same ARN. */
  createApplication(name: string, platform: string, attributes: Record<string, string>): string {
    if (!PLATFORMS.has(platform)) throw invalidParameter(`Platform Reason: ${platform} is not supported`);
    const arn = `${this.arnPrefix}app/${platform}/${name}`;
    if (!this.apps.has(arn)) this.apps.set(arn, { arn, platform, name, attributes });
    return arn;
  }

  /**
   * CreatePlatformEndpoint, with SNS's token rule: the same token with the same attributes answers the existing
   * endpoint; with other attributes it is refused, naming the endpoint that holds the token.
   */
  createEndpoint(
    appArn: string,
    token: string,
    userData: string | undefined,
    attrs: Record<string, string>,
  ): string {
    const app = this.apps.get(appArn);
    if (!app) throw notFound("PlatformApplication does not exist");
    if (!token) throw invalidParameter("Token Reason: Token is required");
    const held = [...this.endpoints.values()].find((e) => e.app === app && e.attributes.Token === token);
    if (held) {
      if ((held.attributes.CustomUserData ?? "") !== (userData ?? ""))
        throw invalidParameter(
          `Token Reason: Endpoint ${held.arn} already exists with the same Token, but different attributes.`,
        );
      return held.arn;
    }
    const arn = `${app.arn.replace(":app/", ":endpoint/")}/${this.ids()}`;
    const attributes = {
      Enabled: "true",
      ...attrs,
      Token: token,
      ...(userData ? { CustomUserData: userData } : {}),
    };
    this.endpoints.set(arn, { arn, app, attributes });
    return arn;
  }

  /** GetEndpointAttributes. */
  attributes(arn: string): Record<string, string> {
    return { ...this.find(arn).attributes };
  }

  /** SetEndpointAttributes: a new Token is the endpoint's token from now on. */
  setAttributes(arn: string, attrs: Record<string, string>): void {
    const e = this.find(arn);
    for (const k of Object.keys(attrs))
      if (!["CustomUserData", "Enabled", "Token"].includes(k))
        throw invalidParameter(`Attributes Reason: ${k} is not a valid attribute`);
    Object.assign(e.attributes, attrs);
  }

  /** DeleteEndpoint: deleting one that is gone succeeds, as in SNS. */
  delete(arn: string): void {
    this.endpoints.delete(arn);
  }

  /** Arms a fault: the next `times` publishes to the endpoint fail with `code` (InternalError is a 500). */
  failPublishes(endpointArn: string, code: string, times = 1): void {
    this.faults.set(endpointArn, { code, times });
  }

  /** Checks a publish to an endpoint and answers the delivery to record. */
  push(
    arn: string,
    message: string,
    structure: string | undefined,
    attrs: Record<string, string>,
    at: number,
    messageId: string,
  ): PushDelivery {
    const e = this.find(arn);
    if (e.attributes.Enabled !== "true") throw endpointDisabled();
    this.takeFault(arn);
    const payload = structure === "json" ? platformPayload(message, e.app.platform) : message;
    return {
      messageId,
      endpointArn: arn,
      platform: e.app.platform,
      token: e.attributes.Token ?? "",
      payload,
      attributes: attrs,
      at,
    };
  }

  private takeFault(arn: string): void {
    const f = this.faults.get(arn);
    if (!f) return;
    if (--f.times <= 0) this.faults.delete(arn);
    throw new SnsError(
      f.code,
      f.code === "InternalError" ? 500 : f.code === "Throttled" ? 429 : 400,
      `${f.code} (model fault)`,
    );
  }

  private find(arn: string): PlatformEndpoint {
    const e = this.endpoints.get(arn);
    if (!e) throw notFound("Endpoint does not exist");
    return e;
  }
}

/** The platform's payload of a MessageStructure=json message: its key if present, else `default`. */
function platformPayload(message: string, platform: string): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(message);
  } catch {
    throw invalidParameter("Message Structure - JSON message body failed to parse");
  }
  const value = parsed[platform] ?? parsed.default;
  if (typeof value !== "string")
    throw invalidParameter("Message Structure - No default entry in JSON message body");
  if (platform === "ADM" || platform === "BAIDU") throw snsUnsupported(`pushes to ${platform}`);
  return value;
}
