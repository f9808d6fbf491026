import { counterIds, type MessagingModelOptions } from "../sqs/options";

/** An SES error as REST-JSON sends it: the type in `x-amzn-ErrorType`, the message in the body. */
export class SesError extends Error {
  constructor(
    readonly type: string,
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = type;
  }
}

/** A loud refusal naming what the model does not implement: never a silent difference from AWS. */
export function sesUnsupported(what: string): SesError {
  return new SesError("ModelUnsupportedException", 400, `The SES model does not support ${what}`);
}

const badRequest = (message: string) => new SesError("BadRequestException", 400, message);

/** SendEmail's parameters for a Simple message (the only content the model takes). */
export interface SendEmailInput {
  FromEmailAddress?: string;
  Destination?: { ToAddresses?: string[]; CcAddresses?: string[]; BccAddresses?: string[] };
  ReplyToAddresses?: string[];
  Content?: {
    Simple?: {
      Subject?: { Data?: string; Charset?: string };
      Body?: { Text?: { Data?: string; Charset?: string }; Html?: { Data?: string; Charset?: string } };
      Headers?: unknown[];
      Attachments?: unknown[];
    };
    Raw?: unknown;
    Template?: unknown;
  };
  ConfigurationSetName?: string;
  EmailTags?: Array<{ Name: string; Value: string }>;
  [other: string]: unknown;
}

/** One email SES accepted: recorded, never sent. */
export interface SentEmail {
  messageId: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  replyTo: string[];
  subject: string;
  text?: string;
  html?: string;
  tags: Record<string, string>;
  at: number;
}

const KNOWN = new Set([
  "FromEmailAddress",
  "Destination",
  "ReplyToAddresses",
  "Content",
  "EmailTags",
  "ConfigurationSetName",
]);

/**
 * SES v2 as a sink: SendEmail validates what SES validates up front, records the mail and answers its message
 * id. Optionally checks the sender against verified identities; faults can be armed for the next sends.
 */
export class SesModel {
  readonly region: string;
  private readonly log: SentEmail[] = [];
  private readonly nextId: () => string;
  private readonly faults: Array<{ type: string; status: number }> = [];

  constructor(private readonly o: MessagingModelOptions & { verifiedIdentities?: string[] }) {
    this.region = o.region ?? "us-east-1";
    this.nextId = o.ids ?? counterIds("5e50");
  }

  /** SendEmail: the message id SES answers, and the mail recorded in `sent()`. */
  sendEmail(input: SendEmailInput): string {
    for (const k of Object.keys(input))
      if (!KNOWN.has(k)) throw sesUnsupported(`the SendEmail parameter ${k}`);
    const simple = input.Content?.Simple;
    if (input.Content?.Raw !== undefined) throw sesUnsupported("Raw content");
    if (input.Content?.Template !== undefined) throw sesUnsupported("Template content");
    if (!simple) throw badRequest("Content is required");
    if (simple.Headers?.length || simple.Attachments?.length)
      throw sesUnsupported("custom headers or attachments");
    const from = input.FromEmailAddress;
    if (!from) throw badRequest("FromEmailAddress is required when the content is not Raw");
    const d = input.Destination ?? {};
    const recipients = [...(d.ToAddresses ?? []), ...(d.CcAddresses ?? []), ...(d.BccAddresses ?? [])];
    if (recipients.length === 0) throw badRequest("Missing final '@domain'");
    if (recipients.length > 50) throw new SesError("MessageRejected", 400, "Recipient count exceeds 50.");
    if (simple.Subject?.Data === undefined) throw badRequest("Subject is required");
    if (simple.Body?.Text?.Data === undefined && simple.Body?.Html?.Data === undefined)
      throw badRequest("Body is required");
    this.checkVerified(from);
    this.takeFault();
    const mail = this.record(input, from);
    return mail.messageId;
  }

  /** Every email accepted so far, in order. */
  sent(): readonly SentEmail[] {
    return this.log;
  }

  /** Arms a fault: the next `times` sends fail with `type` (5xx for InternalFailure/ServiceUnavailable). */
  failSends(type: string, times = 1): void {
    const status = type === "TooManyRequestsException" ? 429 : /Internal|Unavailable/.test(type) ? 500 : 400;
    for (let i = 0; i < times; i++) this.faults.push({ type, status });
  }

  private checkVerified(from: string): void {
    const verified = this.o.verifiedIdentities;
    if (!verified) return;
    const address = /<([^>]+)>/.exec(from)?.[1] ?? from;
    const domain = address.split("@")[1] ?? "";
    if (!verified.includes(address) && !verified.includes(domain))
      throw new SesError(
        "MessageRejected",
        400,
        `Email address is not verified. The following identities failed the check in region ${this.region.toUpperCase()}: ${address}`,
      );
  }

  private takeFault(): void {
    const f = this.faults.shift();
    if (f) throw new SesError(f.type, f.status, `${f.type} (model fault)`);
  }

  private record(input: SendEmailInput, from: string): SentEmail {
    const simple = input.Content?.Simple;
    const d = input.Destination ?? {};
    const mail: SentEmail = {
      messageId: this.nextId(),
      from,
      to: d.ToAddresses ?? [],
      cc: d.CcAddresses ?? [],
      bcc: d.BccAddresses ?? [],
      replyTo: input.ReplyToAddresses ?? [],
      subject: simple?.Subject?.Data ?? "",
      text: simple?.Body?.Text?.Data,
      html: simple?.Body?.Html?.Data,
      tags: Object.fromEntries((input.EmailTags ?? []).map((t) => [t.Name, t.Value])),
      at: this.o.clock.now(),
    };
    this.log.push(mail);
    return mail;
  }
}
