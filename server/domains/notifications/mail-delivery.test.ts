import { eq } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { emailOutbox, user } from "#server/platform/db/schema";
import { createMailer } from "#server/platform/email/mailer";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps, silentLogger } from "#tests/support/payments";
import { startSmtpSink, type SmtpSink } from "#tests/support/smtp-sink";
import { sendNotification } from "./send";

/**
 * "Mail is sent after the transaction commits, retried on failure, never
 * twice" is the SMTP outbox's doing: these follow a notification
 * mail through it to a real SMTP server on loopback.
 */
describe.each(ENGINES)("notification mail through the SMTP outbox on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sinks: SmtpSink[] = [];
  afterAll(async () => {
    for (const sink of sinks) await sink.close().catch(() => {});
  });
  let n = 0;
  const newUser = async () => {
    n += 1;
    const id = `deliver_${engine}_${n}_${Date.now()}`;
    await database.db.insert(user).values({ id, name: id, email: `${id}@d.example`, emailVerified: true });
    return id;
  };
  const notification = (uid: string) => ({ uid, kind: "payment-received" as const, title: "Payment received", message: "You received $5.00." });

  it("sends nothing for a rolled-back transaction, sends once after the commit with the one-click headers, and not again", async () => {
    const sink = await startSmtpSink();
    sinks.push(sink);
    const mailer = createMailer({ db: database.db, smtpUrl: sink.url, from: "Sponsorgrid <no-reply@d.example>", logger: silentLogger, pollMs: 60_000 });
    const deps = notificationDeps(database.db, mailer);
    const uid = await newUser();
    const to = `${uid}@d.example`;

    await database.db
      .transaction(async (tx) => {
        await sendNotification(tx, notification(uid), deps);
        throw new Error("rolled back");
      })
      .catch(() => {});
    expect(await mailer.deliverDue()).toBe(0);
    expect(sink.messages.filter((mail) => mail.to.includes(to))).toEqual([]);

    await database.db.transaction((tx) => sendNotification(tx, notification(uid), deps));
    expect(await mailer.deliverDue()).toBe(1);
    const mail = await sink.waitForMail(to);
    expect(mail.subject).toBe("Payment received");
    expect(mail.headers["list-unsubscribe"]).toMatch(/^<http:\/\/app\.test\/unsubscribe\/v1\.[^>]+>$/);
    expect(mail.headers["list-unsubscribe-post"]).toBe("List-Unsubscribe=One-Click");
    // Delivered rows are gone: later rounds (and other processes) find nothing to send again.
    expect(await mailer.deliverDue()).toBe(0);
    expect(await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to))).toEqual([]);
    expect(sink.messages.filter((mail) => mail.to.includes(to))).toHaveLength(1);
    await mailer.close();
  });

  it("retries a mail the server did not take, and delivers it once when the server is back", async () => {
    const down = await startSmtpSink();
    const port = down.port;
    await down.close();
    const mailer = createMailer({ db: database.db, smtpUrl: `smtp://127.0.0.1:${port}`, from: "Sponsorgrid <no-reply@d.example>", logger: silentLogger, pollMs: 60_000, retryDelaysMs: [60_000, 60_000] });
    const deps = notificationDeps(database.db, mailer);
    const uid = await newUser();
    const to = `${uid}@d.example`;
    await database.db.transaction((tx) => sendNotification(tx, notification(uid), deps));

    expect(await mailer.deliverDue()).toBe(0);
    const [waiting] = await database.db.select().from(emailOutbox).where(eq(emailOutbox.to, to));
    expect(waiting).toMatchObject({ status: "queued", attempts: 1 });
    expect(waiting!.lastError).toBeTruthy();

    // Not before its retry time…
    expect(await mailer.deliverDue()).toBe(0);
    const back = await startSmtpSink({ port });
    sinks.push(back);
    // …which has come (the minute passes).
    await database.db.update(emailOutbox).set({ nextAttemptAt: new Date() }).where(eq(emailOutbox.to, to));
    expect(await mailer.deliverDue()).toBe(1);
    expect(await mailer.deliverDue()).toBe(0);
    await back.waitForMail(to);
    expect(back.messages.filter((mail) => mail.to.includes(to))).toHaveLength(1);
    await mailer.close();
  });
});
