import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Every mail the app sends passes through here, so no request waits for SMTP:
 * - `stored`: kept by the outbox transport (no SMTP_URL), shown at /dev/mailbox
 *   to requests from this machine;
 * - `queued`: waiting for the SMTP worker (server/platform/email/mailer.ts), which
 *   deletes the row once the server accepted the mail and retries on failure
 *   (`attempts`, `nextAttemptAt`, `lastError`);
 * - `failed`: given up after the last retry, kept for the operator.
 */
export const emailOutbox = pgTable(
  "email_outbox",
  {
    id: uuid().primaryKey().defaultRandom(),
    to: text().notNull(),
    from: text().notNull(),
    subject: text().notNull(),
    html: text().notNull(),
    text: text().notNull(),
    // What the mail is for and its main link, e.g. { kind: "verify-email", url }.
    meta: jsonb().$type<Record<string, string>>().notNull().default({}),
    // Extra headers sent with the mail, e.g. List-Unsubscribe and List-Unsubscribe-Post on notification mail.
    headers: jsonb().$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    status: text().$type<"stored" | "queued" | "failed">().notNull().default("stored"),
    attempts: integer().notNull().default(0),
    nextAttemptAt: timestamp({ withTimezone: true }),
    lastError: text(),
  },
  (t) => [
    index("email_outbox_created_idx").on(t.createdAt),
    index("email_outbox_to_idx").on(t.to, t.createdAt),
    index("email_outbox_due_idx").on(t.status, t.nextAttemptAt),
  ],
);
