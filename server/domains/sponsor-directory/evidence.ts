import { desc, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { externalSponsors } from "#server/platform/db/schema";
import { listSponsorPreviews } from "./previews";
import { shownInDirectory } from "./shown";

/**
 * What the directory holds, as the Pro page says it: every company a Pro member would see, those
 * added since the first of this month (UTC, the calendar every page dates companies in), and
 * whether they are the invented sample catalogue. One scan of a table of a few thousand rows at
 * most, with no per-row work: cheap enough to read on every visit.
 */
export type DirectoryCounts = { companies: number; addedThisMonth: number; samples: boolean };

export function monthStartUtc(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

export async function directoryCounts(db: Db, now = new Date()): Promise<DirectoryCounts> {
  const since = monthStartUtc(now).toISOString();
  const [row] = await db
    .select({
      companies: sql<number>`count(*)::int`,
      addedThisMonth: sql<number>`(count(*) filter (where ${externalSponsors.addedAt} >= ${since}::timestamptz))::int`,
      samples: sql<boolean>`coalesce(bool_or(${externalSponsors.sample}), false)`,
    })
    .from(externalSponsors)
    .where(shownInDirectory());
  return { companies: Number(row?.companies ?? 0), addedThisMonth: Number(row?.addedThisMonth ?? 0), samples: row?.samples === true };
}

/** A fact of a company's page that only Pro members read; `detail`, when given, says how much is there without saying it. */
export type LockedFact = { label: string; detail: string | null };

/**
 * One company as a person without Pro sees it, with what Pro would add. Only what the preview
 * sample already shows anyone (name, tags, teaser) leaves the server: the locked facts are their
 * names and sizes, never their values.
 */
export type LockedPreview = { name: string; tags: string[]; preview: string; sample: boolean; locked: LockedFact[] };

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The newest company of the preview sample, or null when the directory is empty. */
export async function lockedPreview(db: Db): Promise<LockedPreview | null> {
  const previews = await listSponsorPreviews(db);
  if (previews.length === 0) return null;
  const ids = previews.map((p) => p.id);
  const [row] = await db
    .select({
      id: externalSponsors.id,
      formats: sql<number>`coalesce(jsonb_array_length(${externalSponsors.details}->'formats'), 0)::int`,
      sponsors: sql<boolean>`coalesce(${externalSponsors.details}->>'sponsors', '') <> ''`,
      applyPage: sql<boolean>`coalesce(${externalSponsors.details}->>'applyUrl', '') <> ''`,
    })
    .from(externalSponsors)
    .where(sql`${externalSponsors.id} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`)
    .orderBy(desc(externalSponsors.addedAt), desc(externalSponsors.id))
    .limit(1);
  const shown = previews.find((p) => p.id === row?.id) ?? previews[0]!;
  const locked: LockedFact[] = [
    { label: "About the company", detail: null },
    { label: "Website", detail: null },
    ...(row?.sponsors ? [{ label: "What they sponsor", detail: null }] : []),
    ...(row && Number(row.formats) > 0 ? [{ label: "Formats", detail: plural(Number(row.formats), "deal format", "deal formats") }] : []),
    { label: "How to apply", detail: null },
    ...(row?.applyPage ? [{ label: "Apply page", detail: null }] : []),
  ];
  return { name: shown.name, tags: shown.tags, preview: shown.preview, sample: shown.sample, locked };
}
