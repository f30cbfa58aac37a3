import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { photos } from "./media";

export const USER_TYPES = ["creator", "sponsor"] as const;
export type UserType = (typeof USER_TYPES)[number];

/** Public profile, one per user (SPEC §3 Profile). */
export const profiles = pgTable(
  "profiles",
  {
    uid: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    name: text().notNull().default(""),
    paymentsEnabled: boolean().notNull().default(false),
    // Derived from the signup log entry; kept here so reads need no log scan.
    userType: text().$type<UserType>(),
    // The profile photo's content id (server/domains/media/); null shows the name's initial.
    photoId: text().references(() => photos.id, { onDelete: "set null" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("profiles_user_type_check", sql`${t.userType} is null or ${t.userType} in ('creator', 'sponsor')`),
    check("profiles_name_length_check", sql`char_length(${t.name}) < 100`),
  ],
);

/** Activity log (SPEC §3 Log entry): signup, welcome, search and error entries. */
export const logs = pgTable(
  "logs",
  {
    id: uuid().primaryKey().defaultRandom(),
    uid: text().references(() => user.id, { onDelete: "set null" }),
    collection: text(),
    docId: text(),
    description: text().notNull(),
    subtype: text(),
    type: text(),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    // How many times this happened in the row's window: search entries are aggregated
    // per (uid, term) over a few seconds (server/platform/search-log/); every other entry is one event.
    count: integer().notNull().default(1),
  },
  (t) => [
    // "logs where uid equals the user and description is signup" (SPEC §7.2).
    index("logs_uid_description_idx").on(t.uid, t.description),
    // The back office's "searched and not found" report reads one collection over a period.
    index("logs_collection_created_idx").on(t.collection, t.created),
    check("logs_count_check", sql`${t.count} >= 1`),
  ],
);
