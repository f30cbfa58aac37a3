import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, unique } from "drizzle-orm/pg-core";
import { user } from "./auth";

/**
 * Which way an opportunity runs: a sponsor's brief that creators apply to, or a creator's
 * sponsorship request that sponsors make offers on. The poster chooses; their account type is the default.
 */
export const OPPORTUNITY_KINDS = ["brief", "request"] as const;
export type OpportunityKind = (typeof OPPORTUNITY_KINDS)[number];

/**
 * An opportunity post: SPEC's short record and description record in one row.
 * The id is `(10000000000 - epochSeconds)_random`, so ascending id order is
 * newest first with the random part as tie-breaker; the primary key's btree
 * serves the newest-first list.
 */
export const opportunityPosts = pgTable(
  "opportunity_posts",
  {
    id: text().primaryKey(),
    title: text().notNull(),
    organization: text().notNull().default(""),
    description: text().notNull(),
    bullets: text().array(),
    website: text().notNull().default(""),
    contactName: text().notNull().default(""),
    contactEmail: text().notNull().default(""),
    contactPhone: text().notNull().default(""),
    // Whole US dollars in cents (minor units); 0 means funds are not collected here.
    minContributionCents: integer().notNull().default(0),
    currency: text().notNull().default("usd"),
    applicationDeadline: timestamp({ withTimezone: true }),
    // The IANA zone the poster typed the deadline's wall time in; null for posts saved before it was kept.
    applicationDeadlineTimeZone: text(),
    datePosted: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    posterUid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    posterName: text().notNull().default(""),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    kind: text().$type<OpportunityKind>().notNull().default("request"),
    totalHearts: integer().notNull().default(0),
    // Set by staff to show the post on /featured.
    featuredAt: timestamp({ withTimezone: true }),
    // Taken down by staff (server/domains/moderation/): while set, only its poster sees it, marked removed with the reason.
    removedAt: timestamp({ withTimezone: true }),
    removedReason: text(),
    // Who took it down (the staff member's email), for the back office's list.
    removedBy: text(),
  },
  (t) => [
    check("opportunity_posts_id_format_check", sql`${t.id} ~ '^[0-9]{10}_[A-Za-z0-9]+$'`),
    check("opportunity_posts_min_contribution_check", sql`${t.minContributionCents} >= 0`),
    check("opportunity_posts_total_hearts_check", sql`${t.totalHearts} >= 0`),
    check("opportunity_posts_tags_count_check", sql`cardinality(${t.tags}) <= 30`),
    check("opportunity_posts_kind_check", sql`${t.kind} in ('brief', 'request')`),
    check("opportunity_posts_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
    check("opportunity_posts_deadline_time_zone_check", sql`char_length(${t.applicationDeadlineTimeZone}) <= 64`),
    // tags @> array[...] containment for up to 6 filters.
    index("opportunity_posts_tags_gin_idx").using("gin", t.tags),
    // "posted_by.uid equals the user", newest first.
    index("opportunity_posts_poster_idx").on(t.posterUid, t.id),
    index("opportunity_posts_featured_idx").on(t.featuredAt).where(sql`${t.featuredAt} is not null`),
  ],
);

/** A heart (save) of a post by a user; id is `postId_uid`. */
export const hearts = pgTable(
  "hearts",
  {
    id: text().primaryKey(),
    postId: text()
      .notNull()
      .references(() => opportunityPosts.id, { onDelete: "cascade" }),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique("hearts_post_uid_unique").on(t.postId, t.uid),
    check("hearts_id_check", sql`${t.id} = ${t.postId} || '_' || ${t.uid}`),
    // "hearts where uid equals the user"; a backward scan gives most recent first.
    index("hearts_uid_created_idx").on(t.uid, t.createdAt),
    // The daily hearts roll-up reads one UTC day of hearts (server/domains/notifications/hearts-digest.ts).
    index("hearts_created_idx").on(t.createdAt),
  ],
);

/** Named counters, e.g. 'opportunity posts'. */
export const totals = pgTable(
  "totals",
  {
    name: text().primaryKey(),
    total: integer().notNull().default(0),
  },
  (t) => [check("totals_total_check", sql`${t.total} >= 0`)],
);

export const TAG_KINDS = ["state", "sponsorship_type", "industry", "other", "event_date", "external_sponsor"] as const;
export type TagKind = (typeof TAG_KINDS)[number];

/** The tag catalogues: opportunity filter groups and the sponsor directory's tags. */
export const tags = pgTable(
  "tags",
  {
    kind: text().$type<TagKind>().notNull(),
    name: text().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.kind, t.name] }),
    check(
      "tags_kind_check",
      sql`${t.kind} in ('state', 'sponsorship_type', 'industry', 'other', 'event_date', 'external_sponsor')`,
    ),
    check("tags_name_check", sql`${t.name} = lower(${t.name}) and char_length(${t.name}) between 1 and 60`),
  ],
);
