/**
 * The curated sponsor directory as it is written (server/db/seed/data/
 * sponsors.json and sponsor-tags.json) turned into the rows the database
 * keeps. Pure: no database here, so a bad entry fails in a unit test and at
 * start-up with the same message, naming the entry and the field.
 */
import { z } from "zod";
import type { externalSponsors } from "#server/db/schema";
import { namePrefixes, nameWords } from "./names";

export type ExternalSponsorRow = typeof externalSponsors.$inferInsert;

/** The directory's "Recently Added" covers this window; an entry outside it is a typo. */
export const ADDED_FROM = "2026-06-01";
export const ADDED_TO = "2026-11-20";

export const BLURB_CHARS = { min: 80, max: 420 } as const;
export const PREVIEW_CHARS = { min: 30, max: 200 } as const;
export const TAGS_PER_SPONSOR = { min: 2, max: 5 } as const;

const chars = (value: string) => [...value].length;
const text = (min: number, max: number) =>
  z
    .string()
    .refine((v) => v === v.trim(), "must not start or end with spaces")
    .refine((v) => chars(v) >= min && chars(v) <= max, `must be ${min}–${max} characters`);

const httpsUrl = z.string().refine((v) => {
  try {
    const url = new URL(v);
    return url.protocol === "https:" && url.username === "" && url.password === "";
  } catch {
    return false;
  }
}, "must be an https:// URL");

const tagName = z.string().regex(/^[a-z0-9][a-z0-9 &-]*[a-z0-9]$/, "must be lower-case words").max(60);

export const sponsorTagListSchema = z.array(tagName).min(1);

export const sponsorEntrySchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9_]{2,60}$/, "must be a slug of a-z, 0-9 and _"),
  name: text(1, 80),
  website: httpsUrl,
  tags: z.array(tagName).min(TAGS_PER_SPONSOR.min).max(TAGS_PER_SPONSOR.max),
  blurb: text(BLURB_CHARS.min, BLURB_CHARS.max),
  preview: text(PREVIEW_CHARS.min, PREVIEW_CHARS.max),
  inPreviewSample: z.boolean(),
  details: z.strictObject({
    sponsors: text(20, 400),
    formats: z.array(text(3, 60)).min(1).max(6),
    apply: text(20, 400),
    applyUrl: httpsUrl.nullable(),
  }),
  added: z.iso.date().refine((v) => v >= ADDED_FROM && v <= ADDED_TO, `must be between ${ADDED_FROM} and ${ADDED_TO}`),
});

export type SponsorEntry = z.infer<typeof sponsorEntrySchema>;

export class SponsorCatalogueError extends Error {
  override name = "SponsorCatalogueError";
}

/**
 * Validates the tag list and every entry, then maps them to rows.
 * Throws SponsorCatalogueError naming the first bad entry and what is wrong.
 */
export function sponsorCatalogue(entries: unknown, tagList: unknown): { tags: string[]; rows: ExternalSponsorRow[] } {
  const tags = sponsorTagListSchema.safeParse(tagList);
  if (!tags.success) throw new SponsorCatalogueError(`Sponsor tag list: ${describe(tags.error)}`);
  const known = new Set(tags.data);
  if (known.size !== tags.data.length) throw new SponsorCatalogueError("Sponsor tag list: a tag is listed twice");

  if (!Array.isArray(entries)) throw new SponsorCatalogueError("Sponsor catalogue: must be an array of companies");
  const ids = new Set<string>();
  const names = new Set<string>();
  const rows = entries.map((raw: unknown, index): ExternalSponsorRow => {
    const label = `Sponsor catalogue entry ${index + 1}${hasId(raw) ? ` ("${raw.id}")` : ""}`;
    const parsed = sponsorEntrySchema.safeParse(raw);
    if (!parsed.success) throw new SponsorCatalogueError(`${label}: ${describe(parsed.error)}`);
    const entry = parsed.data;
    const unknownTag = entry.tags.find((tag) => !known.has(tag));
    if (unknownTag) throw new SponsorCatalogueError(`${label}: tag "${unknownTag}" is not in the sponsor tag list`);
    if (new Set(entry.tags).size !== entry.tags.length) throw new SponsorCatalogueError(`${label}: a tag is given twice`);
    if (ids.has(entry.id)) throw new SponsorCatalogueError(`${label}: id "${entry.id}" is used twice`);
    const nameKey = entry.name.toLowerCase();
    if (names.has(nameKey)) throw new SponsorCatalogueError(`${label}: name "${entry.name}" is used twice`);
    ids.add(entry.id);
    names.add(nameKey);
    return toRow(entry);
  });
  return { tags: tags.data, rows };
}

function toRow(entry: SponsorEntry): ExternalSponsorRow {
  const words = nameWords(entry.name);
  return {
    id: entry.id,
    name: entry.name,
    nameArray: words,
    namePrefixes: namePrefixes(words),
    tags: entry.tags,
    blurb: entry.blurb,
    preview: entry.preview,
    inPreviewSample: entry.inPreviewSample,
    website: entry.website,
    details: entry.details,
    // Midday UTC: the calendar date is the same from UTC−11 to UTC+11, wherever a page shows it.
    addedAt: new Date(`${entry.added}T12:00:00Z`),
  };
}

function hasId(raw: unknown): raw is { id: string } {
  return typeof raw === "object" && raw !== null && typeof (raw as { id?: unknown }).id === "string";
}

function describe(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const where = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return `${where}${issue.message}`;
}
