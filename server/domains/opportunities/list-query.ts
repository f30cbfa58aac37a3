import type { DomainError } from "#server/platform/errors";
import { z } from "zod";

import { MAX_TAG_FILTERS } from "#isomorphic/opportunity-links";

// Re-exported so server code keeps one import; components import ./list-links directly.
export { listHref, MAX_TAG_FILTERS, PAGE_SIZE } from "#isomorphic/opportunity-links";

const POST_ID = /^[0-9]{10}_[A-Za-z0-9]{1,40}$/;

// Built once: constructing zod schemas costs more than using them.
const cursorSchema = z.object({
  after: z.string().regex(POST_ID).nullable(),
  before: z.string().regex(POST_ID).nullable(),
  page: z.coerce.number().int().min(0).max(1_000_000).catch(0),
});

export type ListQuery = { tags: string[]; after: string | null; before: string | null; page: number };
export type ListQueryResult = { kind: "SUCCESS"; query: ListQuery } | DomainError<"invalid-argument">;

/**
 * Reads `tags[]`, `after`/`before` (cursors: the id of the last/first item
 * seen) and `page` from the address. Anything forged or malformed is an
 * invalid-argument with a message a person can act on.
 */
export function parseListQuery(params: URLSearchParams, knownTags: Set<string>): ListQueryResult {
  const tags = [...new Set(params.getAll("tags[]").map((tag) => tag.trim().toLowerCase()).filter(Boolean))];
  if (tags.length > MAX_TAG_FILTERS) {
    return { kind: "ERROR", code: "invalid-argument", message: `You can filter by at most ${MAX_TAG_FILTERS} tags at a time.` };
  }
  const unknown = tags.filter((tag) => !knownTags.has(tag));
  if (unknown.length > 0) {
    return { kind: "ERROR", code: "invalid-argument", message: `Unknown tag: ${unknown.map((t) => `“${t.slice(0, 60)}”`).join(", ")}.` };
  }
  const cursors = cursorSchema.safeParse({ after: params.get("after"), before: params.get("before"), page: params.get("page") ?? 0 });
  if (!cursors.success || (cursors.data.after && cursors.data.before)) {
    return { kind: "ERROR", code: "invalid-argument", message: "That page link is not valid. Start again from the first page." };
  }
  return { kind: "SUCCESS", query: { tags, ...cursors.data } };
}
