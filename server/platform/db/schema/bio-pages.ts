import { sql } from "drizzle-orm";
import { bigint, boolean, check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import type { BioTheme } from "#isomorphic/bio-theme";
import { user } from "./auth";

// SPEC §3's thirteen types first, then more networks and a few kinds of button (ADR 0038).
// Lowercase letters only: the host's /{ending}/go/{type} address relies on it.
export const LINK_TYPES = [
  "amazon", "facebook", "instagram", "linkedin", "patreon", "pinterest", "reddit",
  "store", "tiktok", "twitch", "twitter", "website", "youtube",
  "bluesky", "discord", "github", "snapchat", "spotify", "threads", "whatsapp",
  "event", "music", "newsletter", "podcast", "portfolio",
] as const;
export type LinkType = (typeof LINK_TYPES)[number];
/**
 * One link of a page. `title` replaces the type's label when set; `enabled`
 * false keeps the link in the editor but off the public page. The array's
 * order is the page's order.
 */
export type BioPageLink = { type: LinkType; url: string; title?: string; enabled?: boolean };
export type BioPageSponsorship = { post_id: string };

/** A public bio (link-in-bio) page; SPEC calls it a business-bio page (bizb) served at {BIO_ORIGIN}/{custom_ending}. */
export const bioPages = pgTable(
  "bio_pages",
  {
    id: text().primaryKey(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    // Permanent once chosen; unique across all pages.
    customEnding: text().notNull().unique("bio_pages_custom_ending_unique"),
    name: text().notNull(),
    blurb: text().notNull().default(""),
    links: jsonb().$type<BioPageLink[]>().notNull().default([]),
    sponsorships: jsonb().$type<BioPageSponsorship[]>().notNull().default([]),
    paymentsEnabled: boolean().notNull().default(false),
    created: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    featuredAt: timestamp({ withTimezone: true }),
    // The page's look (isomorphic/bio-theme.ts); null is the default theme.
    theme: jsonb().$type<BioTheme>(),
    // The support block at the top of the page: tips on/off, preset amounts and the minimum, in minor units.
    acceptTips: boolean().notNull().default(true),
    tipPresets: jsonb().$type<number[]>().notNull().default([300, 500, 1000]),
    tipMinimum: integer().notNull().default(100),
    // Shown to a supporter on the success page after paying.
    thankYouMessage: text().notNull().default(""),
    // The opt-in supporter wall, and an optional goal (target in minor units of the page's currency).
    wallEnabled: boolean().notNull().default(false),
    goalTitle: text(),
    goalTarget: integer(),
    // When the current goal was set: only payments from then on count towards it (a new goal starts at zero).
    goalStartedAt: timestamp({ withTimezone: true }),
    // Taken down by staff (server/domains/moderation/): while set, the page answers "unavailable" like a disabled owner's.
    removedAt: timestamp({ withTimezone: true }),
    removedReason: text(),
    // Who took it down (the staff member's email), for the back office's list.
    removedBy: text(),
    // When the owner first copied the page's address from the setup checklist (its "Copy your link" step).
    linkCopiedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    check("bio_pages_custom_ending_check", sql`${t.customEnding} ~ '^[a-z0-9_]{1,99}$'`),
    check("bio_pages_links_check", sql`jsonb_typeof(${t.links}) = 'array' and jsonb_array_length(${t.links}) <= 10`),
    check(
      "bio_pages_sponsorships_check",
      sql`jsonb_typeof(${t.sponsorships}) = 'array' and jsonb_array_length(${t.sponsorships}) <= 10`,
    ),
    index("bio_pages_uid_idx").on(t.uid, t.updatedAt),
    check("bio_pages_tip_minimum_check", sql`${t.tipMinimum} > 0`),
    check("bio_pages_goal_target_check", sql`${t.goalTarget} is null or ${t.goalTarget} > 0`),
    index("bio_pages_featured_idx").on(t.featuredAt).where(sql`${t.featuredAt} is not null`),
  ],
);

/** View counter of a bio page, created at zero with the page. */
export const bioPageViews = pgTable(
  "bio_page_views",
  {
    pageId: text()
      .primaryKey()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    count: bigint({ mode: "number" }).notNull().default(0),
  },
  (t) => [check("bio_page_views_count_check", sql`${t.count} >= 0`), index("bio_page_views_uid_idx").on(t.uid)],
);

/**
 * Human views of a bio page per UTC day, for the owner's chart. Written with
 * the views record in one transaction by the batched counter (server/domains/bio/).
 */
export const bioPageDailyViews = pgTable(
  "bio_page_daily_views",
  {
    pageId: text()
      .notNull()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    day: date({ mode: "string" }).notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.pageId, t.day] }), check("bio_page_daily_views_count_check", sql`${t.count} >= 0`)],
);

/** Human clicks on a bio page's link (by the link's type, one link per type) per UTC day. */
export const bioPageLinkClicks = pgTable(
  "bio_page_link_clicks",
  {
    pageId: text()
      .notNull()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    linkType: text().$type<LinkType>().notNull(),
    day: date({ mode: "string" }).notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.pageId, t.linkType, t.day] }),
    check("bio_page_link_clicks_count_check", sql`${t.count} >= 0`),
  ],
);

/**
 * Counted views of a bio page per UTC day and referring site: the Referer's
 * host, normalised ("instagram.com"), or "Direct" when none was sent
 * (server/domains/bio/host/referrer-site.ts). Never a full address or anything
 * about the visitor. Written with the daily views in the same batch, so a
 * day's rows add up to its daily views.
 */
export const bioPageDailyReferrers = pgTable(
  "bio_page_daily_referrers",
  {
    pageId: text()
      .notNull()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    day: date({ mode: "string" }).notNull(),
    site: text().notNull(),
    count: integer().notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.pageId, t.day, t.site] }),
    check("bio_page_daily_referrers_count_check", sql`${t.count} >= 0`),
  ],
);

/**
 * A "Work with me" package on a bio page: a fixed piece of work at a price, that a sponsor
 * requests as a direct offer prefilled from it (app/routes/deals/offer-to-creator.tsx). The
 * price is in minor units of `currency`, held to the deal prices' bounds by the domain
 * (server/domains/bio/packages.ts); at most MAX_PACKAGES_PER_PAGE (isomorphic/bio-packages.ts)
 * per page, in `position` order.
 */
export const bioPackages = pgTable(
  "bio_packages",
  {
    id: text().primaryKey(),
    bioPageId: text()
      .notNull()
      .references(() => bioPages.id, { onDelete: "cascade" }),
    position: integer().notNull(),
    title: text().notNull(),
    // What is delivered, in the creator's words.
    details: text().notNull(),
    price: integer().notNull(),
    currency: text().notNull().default("usd"),
    turnaroundDays: integer().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("bio_packages_page_idx").on(t.bioPageId, t.position),
    check("bio_packages_title_check", sql`char_length(${t.title}) between 1 and 80`),
    check("bio_packages_details_check", sql`char_length(${t.details}) between 1 and 500`),
    check("bio_packages_price_check", sql`${t.price} > 0`),
    check("bio_packages_turnaround_check", sql`${t.turnaroundDays} between 1 and 90`),
  ],
);
