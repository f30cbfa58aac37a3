import { sql } from "drizzle-orm";
import { boolean, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";

/** An in-app notification (SPEC: alert). */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid().primaryKey().defaultRandom(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    // What it is about (server/notifications/kinds.ts), for filtering and tests; "general" before kinds existed.
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
  ],
);
