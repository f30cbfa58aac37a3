// Browser-safe: the list page's links and limits, with no imports, so the
// components that draw filters and pagers ship without zod or drizzle.
// Parsing the address (zod) stays in list-query.ts, on the server.

export const PAGE_SIZE = 20;
export const MAX_TAG_FILTERS = 6;

/** The address of the first page for a set of filters (changing filters goes back to page 0). */
export function listHref(tags: string[], cursor: { after?: string; before?: string; page?: number } = {}): string {
  const params = new URLSearchParams();
  for (const tag of tags) params.append("tags[]", tag);
  if (cursor.page) params.set("page", String(cursor.page));
  if (cursor.after) params.set("after", cursor.after);
  if (cursor.before) params.set("before", cursor.before);
  const query = params.toString();
  return query ? `/app/opportunities?${query}` : "/app/opportunities";
}
