import { asc, inArray } from "drizzle-orm";
import type { Db } from "#server/db/client";
import { tags } from "#server/db/schema";
import { TAG_GROUPS, type TagCatalogue, type TagGroupKind } from "./tag-groups";

// Re-exported so server code keeps one import; components import ./tag-groups directly.
export { DEFAULT_TAG_GROUP, TAG_GROUPS, type TagCatalogue, type TagGroupKind } from "./tag-groups";

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
