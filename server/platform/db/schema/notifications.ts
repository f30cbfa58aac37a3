import { sql } from "drizzle-orm";
import { boolean, date, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";

/** An in-app notification (SPEC: notification). */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    // What it is about (server/domains/notifications/kinds.ts), for filtering and tests; "general" before kinds existed.
    kind: text().notNull().default("general"),
    title: text().notNull(),
    message: text().notNull(),
    unread: boolean().notNull().default(true),
    buttonText: text(),
    buttonDestination: text(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    readOn: timestamp({ withTimezone: true }),
  },
  (t) => [
    // SPEC §7.2 "alerts queried by uid", newest first.
    index("notifications_uid_created_idx").on(t.uid, t.created),
    // The unread count in the user menu.
    index("notifications_uid_unread_idx").on(t.uid).where(sql`${t.unread}`),
    // One welcome per person, however often the verification link is followed (server/domains/notifications/welcome.ts).
    uniqueIndex("notifications_one_welcome_idx").on(t.uid).where(sql`${t.kind} = 'welcome'`),
  ],
);

/**
 * Whether a person wants a kind of notification by mail too (in-app is always on).
 * No row means the kind's default (server/domains/notifications/kinds.ts), so a
 * changed default reaches everyone who never chose.
 */
export const notificationPreferences = pgTable(
  "notification_preferences",
  {
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    kind: text().notNull(),
    mail: boolean().notNull(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.kind] })],
);

/**
 * The daily hearts roll-up already written: one row per person and UTC day,
 * taken in the same transaction as the notification, so two processes (or two runs)
 * never write the same day's notification twice (server/domains/notifications/hearts-digest.ts).
 */
export const notificationDigests = pgTable(
  "notification_digests",
  {
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    day: date({ mode: "string" }).notNull(),
    hearts: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.uid, t.day] })],
);
