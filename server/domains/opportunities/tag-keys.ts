import { sql, type SQL } from "drizzle-orm";
import { opportunityPosts } from "#server/platform/db/schema";

/**
 * Tags sorted by code unit, which is the byte order the database's key
 * functions use (COLLATE "C", migration 0003), whatever the database's own
 * collation.
 */
function sortedUnique(tags: string[]): string[] {
  return [...new Set(tags)].sort();
}

/**
 * Keys of `size` tags ('a|b' or 'a|b|c', sorted) that together cover every
 * tag: a post has all the tags exactly when it has all these keys. The last
 * group, if short, is filled up with the first tags. Needs at least `size`
 * distinct tags.
 */
export function coveringKeys(tags: string[], size: 2 | 3): string[] {
  const sorted = sortedUnique(tags);
  if (sorted.length < size) throw new RangeError(`coveringKeys needs at least ${size} distinct tags`);
  const keys: string[] = [];
  for (let start = 0; start < sorted.length; start += size) {
    const group = sorted.slice(start, start + size);
    for (const tag of sorted) {
      if (group.length === size) break;
      if (!group.includes(tag)) group.push(tag);
    }
    keys.push(group.sort().join("|"));
  }
  return keys;
}

/**
 * The filter "has every one of these tags", through the rarest index that
 * answers it (docs/decisions/0007-tag-pairs.md): one tag in `tags`, two as a
 * pair in `tag_pairs`, three or more as covering triples in `tag_triples`.
 * A key of common tags is far rarer than any one of them, so the index reads
 * short posting lists instead of intersecting long ones.
 */
export function hasEveryTag(tags: string[]): SQL | undefined {
  const unique = sortedUnique(tags);
  if (unique.length === 0) return undefined;
  if (unique.length === 1) return sql`${opportunityPosts.tags} @> ${sql.param(unique)}::text[]`;
  if (unique.length === 2) return sql`tag_pairs @> ${sql.param(coveringKeys(unique, 2))}::text[]`;
  return sql`tag_triples @> ${sql.param(coveringKeys(unique, 3))}::text[]`;
}
