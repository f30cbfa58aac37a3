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
  /**
   * The public page behind one shown fact, when it is not `source` (staff curate these in the
   * back office, server/domains/sponsor-directory/curation.ts). Absent: the fact cites `source`.
   */
  sources?: Partial<Record<SourcedFact, string>>;
};

/** The facts a company's page shows that may each cite their own public source. */
export const SOURCED_FACTS = ["website", "blurb", "tags", "sponsors", "apply"] as const;
export type SourcedFact = (typeof SOURCED_FACTS)[number];

/**
 * A company in the curated sponsor directory. SPEC's blurb, detail, page,
 * preview and recent documents are views of this one row
 * (server/domains/sponsor-directory/directory.ts).
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
    // Retired by staff: hidden from every directory read, kept (and restorable) in the back office.
    retiredAt: timestamp({ withTimezone: true }),
    // Last changed in the back office: the start-up seed upsert leaves such a row alone, so a
    // restart never undoes what staff curated.
    staffEditedAt: timestamp({ withTimezone: true }),
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
