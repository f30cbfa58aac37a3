import { asc, inArray } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { tags } from "#server/platform/db/schema";
import type { GenerationSource } from "#server/platform/page-cache/generation";
import { TAG_GROUPS, type TagCatalogue, type TagGroupKind } from "#isomorphic/tag-groups";

// Re-exported so server code keeps one import; components import ./tag-groups directly.
export { DEFAULT_TAG_GROUP, TAG_GROUPS, type TagCatalogue, type TagGroupKind } from "#isomorphic/tag-groups";

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

/** The catalogue as the signed-in list reads it per request (AppContext's `tagCatalogue`). */
export type TagCatalogueReader = () => Promise<TagCatalogue>;

/**
 * The catalogue kept in memory for as long as the guest pages' generation stays the same (read
 * after the request arrived, as the guest page cache reads it): tags change only when a start's
 * seed adds some, and lifecycle moves the generation then, so every process on the database
 * reads the new catalogue on its next request.
 */
export function cachedTagCatalogue(db: Db, generation: GenerationSource): TagCatalogueReader {
  let kept: { generation: string; catalogue: Promise<TagCatalogue> } | null = null;
  return async () => {
    const current = await generation.current();
    if (kept?.generation !== current) {
      const entry = { generation: current, catalogue: loadTagCatalogue(db) };
      kept = entry;
      // A failed read is not kept: the next request tries again.
      entry.catalogue.catch(() => {
        if (kept === entry) kept = null;
      });
    }
    return kept.catalogue;
  };
}

export function allTags(catalogue: TagCatalogue): Set<string> {
  return new Set(Object.values(catalogue).flat());
}
