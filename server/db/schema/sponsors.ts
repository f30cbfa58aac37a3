import { sql } from "drizzle-orm";
import { index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * A company in the curated sponsor directory. SPEC's blurb, detail, page,
 * preview and recent documents are views of this one row.
 */
export const externalSponsors = pgTable(
  "external_sponsors",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    // Lower-case words of the name, for "name_array contains the search term".
    nameArray: text().array().notNull(),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    summary: text().notNull().default(""),
    description: text().notNull().default(""),
    website: text().notNull().default(""),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    addedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("external_sponsors_name_idx").on(t.name, t.id),
    index("external_sponsors_name_array_gin_idx").using("gin", t.nameArray),
    index("external_sponsors_tags_gin_idx").using("gin", t.tags),
    index("external_sponsors_added_idx").on(t.addedAt),
  ],
);
