import {
  CreatePlatformEndpointCommand,
  DeleteEndpointCommand,
  GetEndpointAttributesCommand,
  SetEndpointAttributesCommand,
  type SNSClient,
} from "@aws-sdk/client-sns";
import { codeOf } from "../notification/provider-errors";
import { Refusal } from "../payment/payment-errors";
import type { Platform } from "./device";

/** The provider's endpoint for a token, and the caller it was registered for before, when another one. */
export interface EnsuredEndpoint {
  arn: string;
  previousOwner?: string;
}

/** The provider's endpoints for device tokens. */
export interface PushEndpoints {
  /** The token's endpoint, created or taken over for `caller`, and enabled; a refused token is a bad request. */
  ensure(platform: Platform, token: string, caller: string): Promise<EnsuredEndpoint>;
  /** Deletes an endpoint; deleting one that is gone is fine. */
  remove(endpointArn: string): Promise<void>;
}

/** SNS refusals of what the caller sent (the token), as opposed to our configuration or SNS itself. */
const TOKEN_REFUSALS = new Set(["InvalidParameter", "InvalidParameterValue", "Validation"]);

/** SNS platform endpoints on the APNs and FCM platform applications (env PUSH_APNS_APP_ARN / PUSH_FCM_APP_ARN). */
export class SnsPushEndpoints implements PushEndpoints {
  constructor(
    private readonly sns: SNSClient,
    private readonly apps: Record<Platform, string | undefined>,
  ) {}

  /**
   * SNS's token management: create (the same token and attributes answer the same ARN); when the token exists
   * with other attributes (another caller's), take that endpoint over; then make sure it is enabled and current.
   */
  async ensure(platform: Platform, token: string, caller: string): Promise<EnsuredEndpoint> {
    try {
      const arn = await this.createOrFind(platform, token, caller);
      const out = await this.sns.send(new GetEndpointAttributesCommand({ EndpointArn: arn }));
      const attrs = out.Attributes ?? {};
      const before = attrs.CustomUserData || undefined;
      if (attrs.Enabled !== "true" || attrs.Token !== token || before !== caller) {
        await this.sns.send(
          new SetEndpointAttributesCommand({
            EndpointArn: arn,
            Attributes: { CustomUserData: caller, Enabled: "true", Token: token },
          }),
        );
      }
      return { arn, ...(before && before !== caller ? { previousOwner: before } : {}) };
    } catch (err) {
      if (!TOKEN_REFUSALS.has(codeOf(err))) throw err;
      throw new Refusal(
        "bad-request",
        `the push service refused the device token: ${(err as Error).message}`,
      );
    }
  }

  async remove(endpointArn: string): Promise<void> {
    await this.sns.send(new DeleteEndpointCommand({ EndpointArn: endpointArn }));
  }

  private async createOrFind(platform: Platform, token: string, caller: string): Promise<string> {
    const app = this.apps[platform];
    if (!app)
      throw new Error(
        `no SNS platform application for ${platform}: set PUSH_${platform.toUpperCase()}_APP_ARN`,
      );
    try {
      const out = await this.sns.send(
        new CreatePlatformEndpointCommand({
          PlatformApplicationArn: app,
          Token: token,
          CustomUserData: caller,
        }),
      );
      if (!out.EndpointArn) throw new Error("CreatePlatformEndpoint returned no EndpointArn");
      return out.EndpointArn;
    } catch (err) {
      // SNS names the endpoint that holds the token: "Endpoint <arn> already exists with the same Token, but
      // different attributes."
      const held = /Endpoint (arn:\S+) already exists/.exec(String((err as Error).message))?.[1];
      if (codeOf(err) === "InvalidParameter" && held) return held;
      throw err;
    }
  }
}
