import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth";

export const LINK_TYPES = [
  "amazon", "facebook", "instagram", "linkedin", "patreon", "pinterest", "reddit",
  "store", "tiktok", "twitch", "twitter", "website", "youtube",
] as const;
export type LinkType = (typeof LINK_TYPES)[number];
export type BizbLink = { type: LinkType; url: string };
export type BizbSponsorship = { post_id: string };

/** A public business-bio (link-in-bio) page served at {BIO_ORIGIN}/{custom_ending}. */
export const bizbPages = pgTable(
  "bizb_pages",
  {
    id: text().primaryKey(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    // Permanent once chosen; unique across all pages.
    customEnding: text().notNull().unique("bizb_pages_custom_ending_unique"),
    name: text().notNull(),
    blurb: text().notNull().default(""),
    links: jsonb().$type<BizbLink[]>().notNull().default([]),
    sponsorships: jsonb().$type<BizbSponsorship[]>().notNull().default([]),
    paymentsEnabled: boolean().notNull().default(false),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    featuredAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("bizb_pages_custom_ending_check", sql`${t.customEnding} ~ '^[a-z0-9_]{1,99}$'`),
    check("bizb_pages_links_check", sql`jsonb_typeof(${t.links}) = 'array' and jsonb_array_length(${t.links}) <= 10`),
    check(
      "bizb_pages_sponsorships_check",
      sql`jsonb_typeof(${t.sponsorships}) = 'array' and jsonb_array_length(${t.sponsorships}) <= 10`,
    ),
    index("bizb_pages_uid_idx").on(t.uid, t.updatedAt),
    index("bizb_pages_featured_idx").on(t.featuredAt).where(sql`${t.featuredAt} is not null`),
  ],
);

/** View counter of a bio page, created at zero with the page. */
export const bizbViews = pgTable(
  "bizb_views",
  {
    pageId: text()
      .primaryKey()
      .references(() => bizbPages.id, { onDelete: "cascade" }),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    count: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [check("bizb_views_count_check", sql`${t.count} >= 0`), index("bizb_views_uid_idx").on(t.uid)],
);
