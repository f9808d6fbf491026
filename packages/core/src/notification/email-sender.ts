import { type SESv2Client, SendEmailCommand } from "@aws-sdk/client-sesv2";

/** Sends one email; the answer is the provider's message id. The provider takes no idempotency key. */
export interface EmailSender {
  send(to: string, subject: string, text: string): Promise<string>;
}

/** SES v2 SendEmail from the Region's verified sender. */
export class SesEmailSender implements EmailSender {
  constructor(
    private readonly ses: SESv2Client,
    private readonly from: string,
  ) {}

  async send(to: string, subject: string, text: string): Promise<string> {
    const out = await this.ses.send(
      new SendEmailCommand({
        FromEmailAddress: this.from,
        Destination: { ToAddresses: [to] },
        Content: {
          Simple: {
            Subject: { Data: subject, Charset: "UTF-8" },
            Body: { Text: { Data: text, Charset: "UTF-8" } },
          },
        },
      }),
    );
    if (!out.MessageId) throw new Error("SES accepted the email but returned no MessageId");
    return out.MessageId;
  }
}
