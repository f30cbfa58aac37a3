import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

/**
 * One report of a bio page or an opportunity (server/domains/moderation/). `reporter_key` is who
 * reported: the account id when signed in, else a keyed hash of the client network; one open
 * report per reporter and item (the partial unique index), so a repeat is counted once.
 * Guests never see this table: it needs no guest-page trigger.
 */
export const contentReports = pgTable(
  "content_reports",
  {
    id: uuid().primaryKey().defaultRandom(),
    targetType: text().notNull(),
    targetId: text().notNull(),
    reason: text().notNull(),
    note: text().notNull().default(""),
    reporterKey: text().notNull(),
    reporterUid: text(),
    reporterEmail: text(),
    status: text().notNull().default("open"),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    resolvedAt: timestamp({ withTimezone: true }),
    resolvedBy: text(),
    resolution: text(),
  },
  (t) => [
    check("content_reports_target_type_check", sql`${t.targetType} in ('bio_page', 'opportunity')`),
    check("content_reports_status_check", sql`${t.status} in ('open', 'actioned', 'dismissed')`),
    check("content_reports_note_check", sql`char_length(${t.note}) <= 1000`),
    uniqueIndex("content_reports_open_once_idx").on(t.targetType, t.targetId, t.reporterKey).where(sql`${t.status} = 'open'`),
    index("content_reports_status_idx").on(t.status, t.createdAt),
    index("content_reports_target_idx").on(t.targetType, t.targetId),
  ],
);
