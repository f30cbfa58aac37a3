import nodemailer from "nodemailer";
import type { Logger } from "pino";
import type { Db } from "#server/db/client";
import { emailOutbox } from "#server/db/schema/email";

export type MailMessage = {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** What the mail is for and its main link, e.g. { kind: "verify-email", url }. */
  meta?: Record<string, string>;
};

export type Mailer = {
  transport: "smtp" | "outbox";
  send(message: MailMessage): Promise<void>;
};

type MailerOptions = { db: Db; smtpUrl?: string; from: string; logger: Logger };

/** SMTP when SMTP_URL is set; otherwise the database outbox shown at /dev/mailbox. */
export function createMailer(options: MailerOptions): Mailer {
  return options.smtpUrl ? smtpMailer(options.smtpUrl, options) : outboxMailer(options);
}

function smtpMailer(smtpUrl: string, { from, logger }: MailerOptions): Mailer {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    transport: "smtp",
    async send({ to, subject, html, text }) {
      // Failures propagate: the caller knows whether to retry, report or ignore.
      const info = await transporter.sendMail({ from, to, subject, html, text });
      // No URL here: links carry tokens, and the log is not the place for them once mail really goes out.
      logger.info({ to, subject, messageId: info.messageId }, "email sent over SMTP");
    },
  };
}

function outboxMailer({ db, from, logger }: MailerOptions): Mailer {
  return {
    transport: "outbox",
    async send({ to, subject, html, text, meta = {} }) {
      await db.insert(emailOutbox).values({ to, from, subject, html, text, meta });
      // The link goes to the log so a developer can follow it without opening the mailbox.
      logger.info({ to, subject, url: meta.url }, "email stored in the outbox; open /dev/mailbox");
    },
  };
}
