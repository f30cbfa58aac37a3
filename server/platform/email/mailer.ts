import nodemailer from "nodemailer";
import { and, asc, eq, lte, sql } from "drizzle-orm";
import type { Logger } from "pino";
import type { Db } from "#server/platform/db/client";
import { createWorkLoop } from "#server/platform/jobs/work-loop";
import { emailOutbox } from "#server/platform/db/schema/email";
import { failureLog } from "#server/platform/db/unavailable";

export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What the mail is for and its main link, e.g. { kind: "verify-email", url }. */
  meta?: Record<string, string>;
  /** Extra headers, e.g. List-Unsubscribe and List-Unsubscribe-Post on notification mail (ADR 0025). */
  headers?: Record<string, string>;
};

export type Mailer = {
  transport: "smtp" | "outbox";
  /**
   * Stores the mail and returns: with SMTP it is queued and a background
   * worker in this process delivers it, so no request waits for (or learns
   * anything from the timing of) the mail server.
   */
  send(message: MailMessage): Promise<void>;
  /**
   * Stores the mail with the caller's transaction, so it goes out only if
   * the change it reports commits (a payment's receipt). The SMTP worker
   * finds it on its next round (`deliverDue` after the commit sends it now).
   */
  sendWithin(tx: Pick<Db, "insert">, message: MailMessage): Promise<void>;
  /** Delivers every queued mail that is due, now; how many went. The worker calls it; so can tests. */
  deliverDue(): Promise<number>;
  /** Stops the worker and waits (a bounded time) for a delivery under way; queued mail stays for the next start. */
  close(): Promise<void>;
};

type MailerOptions = {
  db: Db;
  smtpUrl?: string;
  from: string;
  logger: Logger;
  /** NODE_ENV=production: links are never logged, and missing SMTP is a warning. */
  production?: boolean;
  /** How often the worker looks for retries and for mail left by an earlier run. */
  pollMs?: number;
  /** Waits between attempts; after the last one the mail is marked failed. */
  retryDelaysMs?: readonly number[];
  /** How long close() waits for a delivery under way. */
  drainMs?: number;
};

/** 5 s, 30 s, 2 min, 10 min, 30 min, 1 h: a mail server down for a while still gets the mail. */
export const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000, 3_600_000] as const;
/** A claimed mail another process may take over if this one died mid-delivery. */
const DELIVERY_LEASE_MS = 5 * 60_000;

export const NO_SMTP_IN_PRODUCTION_WARNING =
  "SMTP_URL is not set: NO email is sent. Verification and password-reset mail stays in the database outbox " +
  "(table email_outbox); /dev/mailbox shows it to this machine only with DEV_MAILBOX=on. Set SMTP_URL to deliver mail.";

/** SMTP when SMTP_URL is set; otherwise the database outbox shown at /dev/mailbox. */
export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) return smtpMailer(options.smtpUrl, options);
  if (options.production) options.logger.warn({ transport: "outbox" }, NO_SMTP_IN_PRODUCTION_WARNING);
  return outboxMailer(options);
}

function smtpMailer(smtpUrl: string, options: MailerOptions): Mailer {
  const { db, from, logger, pollMs = 5_000, retryDelaysMs = DEFAULT_RETRY_DELAYS_MS, drainMs = 10_000 } = options;
  // Bounded waits: a server that hangs delays the queue, never a request.
  // (Settings in the URL's query win over these.)
  const transporter = nodemailer.createTransport({ url: smtpUrl, connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 });

  /** Takes the oldest due mail, leased so that no other process sends it meanwhile (one at a time: mail goes in order). */
  async function claimNext() {
    const now = new Date();
    const [row] = await db
      .update(emailOutbox)
      .set({ attempts: sql`${emailOutbox.attempts} + 1`, nextAttemptAt: new Date(now.getTime() + DELIVERY_LEASE_MS) })
      .where(
        eq(
          emailOutbox.id,
          sql`(select id from email_outbox where status = 'queued' and next_attempt_at <= ${now} order by next_attempt_at, created_at limit 1 for update skip locked)`,
        ),
      )
      .returning();
    return row ? [row] : [];
  }

  async function deliverOne(row: typeof emailOutbox.$inferSelect): Promise<boolean> {
    try {
      const info = await transporter.sendMail({ from: row.from, to: row.to, subject: row.subject, html: row.html, text: row.text, headers: row.headers });
      await db.delete(emailOutbox).where(eq(emailOutbox.id, row.id));
      // No URL here: links carry tokens, and the log is not the place for them once mail really goes out.
      logger.info({ mailId: row.id, to: row.to, subject: row.subject, messageId: info.messageId, attempts: row.attempts }, "email sent over SMTP");
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const delay = retryDelaysMs[row.attempts - 1];
      if (delay === undefined) {
        await db.update(emailOutbox).set({ status: "failed", lastError: message, nextAttemptAt: null }).where(eq(emailOutbox.id, row.id));
        logger.error({ mailId: row.id, to: row.to, subject: row.subject, attempts: row.attempts, err: error }, "email could not be sent; giving up");
      } else {
        await db
          .update(emailOutbox)
          .set({ lastError: message, nextAttemptAt: new Date(Date.now() + delay) })
          .where(eq(emailOutbox.id, row.id));
        logger.warn({ mailId: row.id, to: row.to, subject: row.subject, attempts: row.attempts, retryInMs: delay, err: error }, "email not sent yet; will retry");
      }
      return false;
    }
  }

  const loop = createWorkLoop({
    claim: claimNext,
    work: deliverOne,
    pollMs,
    drainMs,
    failures: failureLog(logger, "email queue", "email queue could not be read"),
  });
  // Mail queued by an earlier run goes out now.
  loop.start();

  return {
    transport: "smtp",
    async send({ to, subject, html, text, meta = {}, headers = {} }) {
      const [row] = await db.insert(emailOutbox).values({ to, from, subject, html, text, meta, headers, status: "queued", nextAttemptAt: new Date() }).returning({ id: emailOutbox.id });
      // The worker delivers it outside this request: its mailId ties this line (with the request id) to the delivery's.
      logger.info({ mailId: row?.id, to, subject }, "email queued");
      loop.kick();
    },
    async sendWithin(tx, { to, subject, html, text, meta = {}, headers = {} }) {
      const [row] = await tx.insert(emailOutbox).values({ to, from, subject, html, text, meta, headers, status: "queued", nextAttemptAt: new Date() }).returning({ id: emailOutbox.id });
      logger.info({ mailId: row?.id, to, subject }, "email queued with its transaction (sent once it commits)");
    },
    deliverDue: loop.deliverDue,
    close: loop.close,
  };
}

function outboxMailer({ db, from, logger, production }: MailerOptions): Mailer {
  return {
    transport: "outbox",
    async send({ to, subject, html, text, meta = {}, headers = {} }) {
      const [row] = await db.insert(emailOutbox).values({ to, from, subject, html, text, meta, headers }).returning({ id: emailOutbox.id });
      // Links carry sign-in power: never in a log. In development the mail's own page in the mailbox is as near.
      if (production) logger.info({ mailId: row?.id, to, subject }, "email stored in the outbox (not sent: SMTP_URL is not set)");
      else logger.info({ mailId: row?.id, to, subject, mailbox: `/dev/mailbox/${row?.id}` }, "email stored in the outbox; open /dev/mailbox");
    },
    async sendWithin(tx, { to, subject, html, text, meta = {}, headers = {} }) {
      const [row] = await tx.insert(emailOutbox).values({ to, from, subject, html, text, meta, headers }).returning({ id: emailOutbox.id });
      logger.info({ mailId: row?.id, to, subject }, "email stored in the outbox with its transaction");
    },
    deliverDue: async () => 0,
    close: async () => {},
  };
}

/** Mail still waiting for the SMTP worker (tests, operators). */
export async function queuedMail(db: Db) {
  return db
    .select()
    .from(emailOutbox)
    .where(and(eq(emailOutbox.status, "queued"), lte(emailOutbox.createdAt, new Date())))
    .orderBy(asc(emailOutbox.createdAt));
}
