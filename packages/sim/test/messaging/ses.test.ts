import { MessageRejected, SendEmailCommand } from "@aws-sdk/client-sesv2";
import { SesEmailSender } from "@eo/core";
import { describe, expect, it } from "vitest";
import { modelSesClient } from "../../src/ses/client";
import { SesModel } from "../../src/ses/model";
import { ManualClock, messagingWorld, rejection } from "./support/messaging-world";

describe("SES v2 as a recording sink", () => {
  it("records a mail sent through the project's sender, under the message id it answers", async () => {
    const { ses, sesModel, clock } = messagingWorld();
    const sender = new SesEmailSender(ses, "payments@example.com");

    const messageId = await sender.send("alice@example.com", "Receipt", "You paid 10 EUR");

    expect(sesModel.sent()).toEqual([
      expect.objectContaining({
        messageId,
        from: "payments@example.com",
        to: ["alice@example.com"],
        subject: "Receipt",
        text: "You paid 10 EUR",
        at: clock.now(),
      }),
    ]);
  });

  it("refuses a sender that is not a verified identity, as SES does (MessageRejected)", async () => {
    const model = new SesModel({ clock: new ManualClock(), verifiedIdentities: ["example.com"] });
    const ses = modelSesClient(model);
    const mail = (from: string) =>
      ses.send(
        new SendEmailCommand({
          FromEmailAddress: from,
          Destination: { ToAddresses: ["a@b.c"] },
          Content: { Simple: { Subject: { Data: "s" }, Body: { Text: { Data: "t" } } } },
        }),
      );

    await mail("ok@example.com");
    const err = await rejection(mail("x@elsewhere.org"));

    expect(err).toBeInstanceOf(MessageRejected);
    expect(model.sent()).toHaveLength(1);
  });

  it("fails the next send with an armed fault, then records again", async () => {
    const { ses, sesModel } = messagingWorld();
    const sender = new SesEmailSender(ses, "payments@example.com");
    sesModel.failSends("AccountSuspendedException");

    const err = await rejection(sender.send("a@example.com", "s", "t"));
    await sender.send("a@example.com", "s", "t");

    expect(err.name).toBe("AccountSuspendedException");
    expect(sesModel.sent()).toHaveLength(1);
  });
});
