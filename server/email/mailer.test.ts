import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "#tests/support/databases";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink";
import { createMailer } from "./mailer";
import { verificationEmail } from "./messages";
import { getOutboxMessage, listOutbox } from "./outbox";

const site = { appName: "Sponsorgrid", supportEmail: "help@sponsorgrid.example" };
const FROM = "Sponsorgrid <no-reply@sponsorgrid.example>";

function capturedLogger() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...String(chunk).split("\n").filter(Boolean).map((line) => JSON.parse(line)));
      done();
    },
  });
  return { logger: pino({ level: "info" }, sink), lines };
}

const database = migratedDatabase("pglite");

describe("SMTP transport", () => {
  let smtp: SmtpSink;
  beforeAll(async () => {
    smtp = await startSmtpSink();
  });
  afterAll(() => smtp.close());

  it("delivers both bodies and the link over real SMTP, and stores nothing", async () => {
    const url = "http://localhost:3000/api/auth/verify-email?token=abc.def&callbackURL=%2Fapp";
    const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: FROM, logger: pino({ level: "silent" }) });
    expect(mailer.transport).toBe("smtp");

    await mailer.send(await verificationEmail({ to: "ada@example.com", name: "Ada", url, site }));
    const mail = await smtp.waitForMail("ada@example.com", { subject: /^Verify your email/ });

    expect(mail.subject).toBe("Verify your email for Sponsorgrid");
    expect(mail.from).toBe("no-reply@sponsorgrid.example");
    expect(mail.to).toEqual(["ada@example.com"]);
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(url.replace("&", "&amp;"));
    expect(mail.links).toEqual([url]);
    expect(await listOutbox(database.db)).toEqual([]);
  });

  it("passes SMTP failures to the caller", async () => {
    const closed = await startSmtpSink();
    await closed.close();
    const mailer = createMailer({ db: database.db, smtpUrl: closed.url, from: FROM, logger: pino({ level: "silent" }) });
    await expect(mailer.send({ to: "ada@example.com", subject: "Hello", html: "<p>Hi</p>", text: "Hi" })).rejects.toThrow();
  });
});

describe("outbox transport", () => {
  it("stores the mail and logs its link", async () => {
    const { logger, lines } = capturedLogger();
    const mailer = createMailer({ db: database.db, from: FROM, logger });
    expect(mailer.transport).toBe("outbox");
    const url = "http://localhost:3000/reset-password/tok123";

    await mailer.send({ to: "eve@example.com", subject: "Reset", html: "<p>Reset</p>", text: "Reset", meta: { kind: "reset-password", url } });

    const [summary, ...others] = await listOutbox(database.db);
    expect(others).toEqual([]);
    expect(summary).toMatchObject({ to: "eve@example.com", subject: "Reset", meta: { kind: "reset-password", url } });
    expect(await getOutboxMessage(database.db, summary!.id)).toMatchObject({ from: FROM, html: "<p>Reset</p>", text: "Reset" });
    expect(lines).toEqual([
      expect.objectContaining({ level: 30, to: "eve@example.com", subject: "Reset", url, msg: "email stored in the outbox; open /dev/mailbox" }),
    ]);
  });
});
