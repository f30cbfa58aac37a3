import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/** A company's detail record (SPEC: external_sponsor_details), shown to Pro members only. */
export type ExternalSponsorDetails = {
  /** What kinds of creators and content the company sponsors, in a sentence or two. */
  sponsors: string;
  /** The usual deal formats: "Integrated video read", "Affiliate code", … */
  formats: string[];
  /** How a creator applies, in our words (the company's own program, never a person). */
  apply: string;
  /** The company's own page for creators or partners, when it has a public one. */
  applyUrl: string | null;
  /**
   * The public page that confirms these facts, for a real company; null for an
   * invented sample company (`sample`). Optional: rows written before migration 0018 lack it.
   */
  source?: string | null;
};

/**
 * A company in the curated sponsor directory. SPEC's blurb, detail, page,
 * preview and recent documents are views of this one row
 * (server/sponsor-directory/directory.ts).
 */
export const externalSponsors = pgTable(
  "external_sponsors",
  {
    id: text().primaryKey(),
    name: text().notNull(),
    // Lower-case words of the name (SPEC §3 name_array).
    nameArray: text().array().notNull(),
    // Every prefix of every word in name_array: "Search By Name" matches the start of any word
    // with one indexed `@>` (GIN), the same plan at 150 companies or 100,000.
    namePrefixes: text().array().notNull().default(sql`'{}'::text[]`),
    tags: text().array().notNull().default(sql`'{}'::text[]`),
    // Two or three sentences for the list (SPEC blurb).
    blurb: text().notNull(),
    // One teaser sentence for people without Pro (SPEC preview).
    preview: text().notNull(),
    // Part of the fixed sample non-Pro readers browse (/app/sponsors/previews).
    inPreviewSample: boolean().notNull().default(false),
    // An invented company (the shipped sample catalogue): pages label it "Sample company".
    sample: boolean().notNull().default(false),
    website: text().notNull(),
    details: jsonb().$type<ExternalSponsorDetails>().notNull(),
    addedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [
    index("external_sponsors_name_idx").on(t.name, t.id),
    index("external_sponsors_name_array_gin_idx").using("gin", t.nameArray),
    index("external_sponsors_name_prefixes_gin_idx").using("gin", t.namePrefixes),
    index("external_sponsors_tags_gin_idx").using("gin", t.tags),
    index("external_sponsors_added_idx").on(t.addedAt, t.id),
    index("external_sponsors_preview_sample_idx").on(t.name, t.id).where(sql`${t.inPreviewSample}`),
  ],
);
