import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * Mail kept by the outbox transport (no SMTP_URL): shown at /dev/mailbox to
 * requests from this machine. With SMTP configured nothing is stored here.
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
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("email_outbox_created_idx").on(t.createdAt), index("email_outbox_to_idx").on(t.to, t.createdAt)],
);
