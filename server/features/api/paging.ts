import { z } from "zod";

/**
 * Cursor paging for every list: `?limit=` (1–100, 20 by default) and the `nextCursor` of the
 * previous page. A cursor is opaque to callers (base64url JSON of the keyset it continues from),
 * so the order a list is kept in can change without breaking them.
 */
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export const pageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE).meta({ description: `How many items, 1–${MAX_PAGE_SIZE}.` }),
  cursor: z.string().max(500).optional().meta({ description: "The `nextCursor` of the page before; absent for the first page." }),
});

// The cursor itself is the platform's, shared with the lists that page outside the API.
export { decodeCursor, encodeCursor } from "#server/platform/db/keyset";

/** A page of `item`: `{ data, nextCursor }`. */
export function pageOf<Item extends z.ZodType>(item: Item, id: string) {
  return z
    .object({
      data: z.array(item),
      nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    })
    .meta({ id });
}
