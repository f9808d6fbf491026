import { CreatePlatformEndpointCommand, type SNSClient } from "@aws-sdk/client-sns";
import type { Platform } from "./device";

/** Creates the provider's endpoint for a device token. */
export interface PushEndpoints {
  /** The endpoint ARN for the token; asking again with the same token and caller answers the same ARN. */
  create(platform: Platform, token: string, caller: string): Promise<string>;
}

/** SNS platform endpoints on the APNs and FCM platform applications (env PUSH_APNS_APP_ARN / PUSH_FCM_APP_ARN). */
export class SnsPushEndpoints implements PushEndpoints {
  constructor(
    private readonly sns: SNSClient,
    private readonly apps: Record<Platform, string | undefined>,
  ) {}

  async create(platform: Platform, token: string, caller: string): Promise<string> {
    const app = this.apps[platform];
    if (!app)
      throw new Error(
        `no SNS platform application for ${platform}: set PUSH_${platform.toUpperCase()}_APP_ARN`,
      );
    // CreatePlatformEndpoint is idempotent for the same token and attributes, so a repeat gets the same ARN.
    const out = await this.sns.send(
      new CreatePlatformEndpointCommand({
        PlatformApplicationArn: app,
        Token: token,
        CustomUserData: caller,
      }),
    );
    if (!out.EndpointArn) throw new Error("CreatePlatformEndpoint returned no EndpointArn");
    return out.EndpointArn;
  }
}
