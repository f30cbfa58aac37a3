/**
 * The curated sponsor directory as it is written (server/tools/seed/data/
 * sponsors.json and sponsor-tags.json) turned into the rows the database
 * keeps. Pure: no database here, so a bad entry fails in a unit test and at
 * start-up with the same message, naming the entry and the field.
 */
import { z } from "zod";
import type { externalSponsors } from "#server/platform/db/schema";
import { namePrefixes, nameWords } from "./names";

export type ExternalSponsorRow = typeof externalSponsors.$inferInsert;

/**
 * An added date before this is a typo (the directory began in 2026). There is
 * no upper bound but the calendar: a company added today is valid today, and
 * Recently Added shows it first (it lists the newest companies, whatever their dates).
 */
export const ADDED_FROM = "2026-01-01";
/** Hours the earliest time zone (UTC+14) is ahead: a date written there today is still "today". */
const LATEST_ZONE_HOURS = 14;

/** The latest added date the file may hold at `now`: today, in the time zone where it is latest. */
export function latestAddedDate(now: Date): string {
  return new Date(now.getTime() + LATEST_ZONE_HOURS * 3_600_000).toISOString().slice(0, 10);
}

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

/**
 * One company. Every entry either names a public `source` that confirms its
 * facts (a real company, added by an operator) or is `sample: true` (an
 * invented company, shown with a "Sample company" label): the file never puts
 * unsourced words in a real company's mouth.
 */
const sponsorEntryFields = z.strictObject({
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
  added: z.iso.date().refine((v) => v >= ADDED_FROM, `must be ${ADDED_FROM} or later`),
  sample: z.literal(true).optional(),
  source: httpsUrl.optional(),
});

export const sponsorEntrySchema = sponsorEntryFields.superRefine((entry, ctx) => {
  if (entry.sample && entry.source) ctx.addIssue({ code: "custom", path: ["source"], message: "a sample company has no source" });
  if (!entry.sample && !entry.source) {
    ctx.addIssue({ code: "custom", path: ["source"], message: "a real company needs a public https:// source that confirms its facts (or sample: true for an invented one)" });
  }
});

export type SponsorEntry = z.infer<typeof sponsorEntrySchema>;

export class SponsorCatalogueError extends Error {
  override name = "SponsorCatalogueError";
}

/**
 * Validates the tag list and every entry, then maps them to rows.
 * Throws SponsorCatalogueError naming the first bad entry and what is wrong.
 */
export function sponsorCatalogue(entries: unknown, tagList: unknown, now: Date = new Date()): { tags: string[]; rows: ExternalSponsorRow[] } {
  const tags = sponsorTagListSchema.safeParse(tagList);
  if (!tags.success) throw new SponsorCatalogueError(`Sponsor tag list: ${describe(tags.error)}`);
  const known = new Set(tags.data);
  if (known.size !== tags.data.length) throw new SponsorCatalogueError("Sponsor tag list: a tag is listed twice");

  if (!Array.isArray(entries)) throw new SponsorCatalogueError("Sponsor catalogue: must be an array of companies");
  const ids = new Set<string>();
  const names = new Set<string>();
  const applyTexts = new Set<string>();
  const latest = latestAddedDate(now);
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
    // Each company's way in is its own: a shared sentence is boilerplate, not a fact about it.
    const applyKey = entry.details.apply.toLowerCase();
    if (applyTexts.has(applyKey)) throw new SponsorCatalogueError(`${label}: details.apply repeats another company's "How to apply" text`);
    if (entry.added > latest) throw new SponsorCatalogueError(`${label}: added: ${entry.added} is in the future`);
    applyTexts.add(applyKey);
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
    sample: entry.sample === true,
    website: entry.website,
    details: { ...entry.details, source: entry.source ?? null },
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
