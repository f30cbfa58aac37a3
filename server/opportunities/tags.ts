import { asc, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { tags } from "#server/db/schema";

/** SPEC §3 "all_tags": the filter groups, in the order the picker shows them. */
export const TAG_GROUPS = [
  { kind: "sponsorship_type", label: "Sponsorship types" },
  { kind: "state", label: "States" },
  { kind: "industry", label: "Industries" },
  { kind: "other", label: "Other tags" },
  { kind: "event_date", label: "Event dates" },
] as const;

export type TagGroupKind = (typeof TAG_GROUPS)[number]["kind"];
export type TagCatalogue = Record<TagGroupKind, string[]>;

/** Default group of the picker (SPEC §3: "Default tag selection is the sponsorship type"). */
export const DEFAULT_TAG_GROUP: TagGroupKind = "sponsorship_type";

export async function loadTagCatalogue(db: Db): Promise<TagCatalogue> {
  const rows = await db
    .select({ kind: tags.kind, name: tags.name })
    .from(tags)
    .where(inArray(tags.kind, TAG_GROUPS.map((group) => group.kind)))
    .orderBy(asc(tags.name));
  const catalogue = Object.fromEntries(TAG_GROUPS.map((group) => [group.kind, [] as string[]])) as TagCatalogue;
  for (const row of rows) catalogue[row.kind as TagGroupKind].push(row.name);
  return catalogue;
}

export function allTags(catalogue: TagCatalogue): Set<string> {
  return new Set(Object.values(catalogue).flat());
}
