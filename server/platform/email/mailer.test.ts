import { Writable } from "node:stream";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migratedDatabase } from "#tests/support/databases";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink";
import { eq } from "drizzle-orm";
import { emailOutbox } from "#server/platform/db/schema/email";
import { createMailer, NO_SMTP_IN_PRODUCTION_WARNING } from "./mailer";
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

  it("queues the mail, delivers both bodies and the link over real SMTP, and keeps nothing once sent", async () => {
    const url = "http://localhost:3000/api/auth/verify-email?token=abc.def&callbackURL=%2Fapp";
    const mailer = createMailer({ db: database.db, smtpUrl: smtp.url, from: FROM, logger: pino({ level: "silent" }) });
    expect(mailer.transport).toBe("smtp");

    await mailer.send(await verificationEmail({ to: "ada@example.com", name: "Ada", url, site }));
    const mail = await smtp.waitForMail("ada@example.com", { subject: /^Verify your email/ });
    await mailer.close();

    expect(mail.subject).toBe("Verify your email for Sponsorgrid");
    expect(mail.from).toBe("no-reply@sponsorgrid.example");
    expect(mail.to).toEqual(["ada@example.com"]);
    expect(mail.text).toContain(url);
    expect(mail.html).toContain(url.replace("&", "&amp;"));
    expect(mail.links).toEqual([url]);
    await expect.poll(() => database.db.select().from(emailOutbox).where(eq(emailOutbox.to, "ada@example.com"))).toEqual([]);
    expect(await listOutbox(database.db)).toEqual([]);
  });

  it("returns at once however slow the mail server is, and the mail still arrives", async () => {
    const slow = await startSmtpSink({ delayMs: 1_500 });
    const mailer = createMailer({ db: database.db, smtpUrl: slow.url, from: FROM, logger: pino({ level: "silent" }) });
    const started = performance.now();
    await mailer.send({ to: "slow@example.com", subject: "Hello", html: "<p>Hi</p>", text: "Hi" });
    expect(performance.now() - started).toBeLessThan(500);
    expect((await slow.waitForMail("slow@example.com")).subject).toBe("Hello");
    await mailer.close();
    await slow.close();
  });

  it("keeps mail the server refused, retries it, gives up after the last retry, and never throws at the sender", async () => {
    const dead = await startSmtpSink();
    await dead.close();
    const { logger, lines } = capturedLogger();
    const mailer = createMailer({ db: database.db, smtpUrl: dead.url, from: FROM, logger, retryDelaysMs: [0], pollMs: 60_000 });
    await mailer.send({ to: "bounce@example.com", subject: "Hello", html: "<p>Hi</p>", text: "Hi" });
    await mailer.deliverDue();
    await expect
      .poll(async () => (await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, "bounce@example.com")))[0]?.status)
      .toBe("failed");
    const [row] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, "bounce@example.com"));
    expect(row).toMatchObject({ attempts: 2, status: "failed" });
    expect(row!.lastError).toBeTruthy();
    expect(lines.map((line) => line.msg)).toEqual(expect.arrayContaining(["email queued", "email not sent yet; will retry", "email could not be sent; giving up"]));
    // The worker's lines run outside the request that queued the mail: its id joins them to the queue line.
    expect(new Set(lines.filter((line) => String(line.msg).startsWith("email")).map((line) => line.mailId))).toEqual(new Set([row!.id]));
    await mailer.close();
  });

  it("leaves queued mail in the database at shutdown, and the next start delivers it", async () => {
    const dead = await startSmtpSink();
    await dead.close();
    const first = createMailer({ db: database.db, smtpUrl: dead.url, from: FROM, logger: pino({ level: "silent" }), retryDelaysMs: [60_000], pollMs: 60_000 });
    await first.send({ to: "later@example.com", subject: "Still coming", html: "<p>Hi</p>", text: "Hi" });
    await first.deliverDue();
    await first.close();
    const [queued] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, "later@example.com"));
    expect(queued).toMatchObject({ status: "queued", attempts: 1 });

    // Some time later the server is up again and the app restarts.
    await database.db.update(emailOutbox).set({ nextAttemptAt: new Date() }).where(eq(emailOutbox.id, queued!.id));
    const second = createMailer({ db: database.db, smtpUrl: smtp.url, from: FROM, logger: pino({ level: "silent" }) });
    expect((await smtp.waitForMail("later@example.com")).subject).toBe("Still coming");
    await second.close();
  });
});

describe("outbox transport", () => {
  it("stores the mail and, in development, logs where the mailbox shows it, never its link", async () => {
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
      expect.objectContaining({ level: 30, mailId: summary!.id, to: "eve@example.com", subject: "Reset", mailbox: `/dev/mailbox/${summary!.id}`, msg: "email stored in the outbox; open /dev/mailbox" }),
    ]);
    expect(JSON.stringify(lines)).not.toContain("tok123");
  });

  it("in production never writes the link to the log, and says loudly at start that mail is not sent", async () => {
    const { logger, lines } = capturedLogger();
    const mailer = createMailer({ db: database.db, from: FROM, logger, production: true });
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: NO_SMTP_IN_PRODUCTION_WARNING })]);
    expect(NO_SMTP_IN_PRODUCTION_WARNING).toMatch(/SMTP_URL is not set: NO email is sent/);
    expect(NO_SMTP_IN_PRODUCTION_WARNING).toMatch(/\/dev\/mailbox shows it to this machine only with DEV_MAILBOX=on/);

    const url = "https://grid.example/reset-password?token=secret-token-123";
    await mailer.send({ to: "prod@example.com", subject: "Reset", html: "<p>Reset</p>", text: "Reset", meta: { kind: "reset-password", url } });
    expect(lines).toHaveLength(2);
    expect(JSON.stringify(lines)).not.toContain("secret-token-123");
    expect(lines[1]).toMatchObject({ level: 30, to: "prod@example.com" });
  });

  it("says nothing of the kind with SMTP configured, nor in development", () => {
    const { logger, lines } = capturedLogger();
    createMailer({ db: database.db, from: FROM, logger }).close();
    createMailer({ db: database.db, smtpUrl: "smtp://127.0.0.1:9", from: FROM, logger, production: true }).close();
    expect(lines).toEqual([]);
  });
});
