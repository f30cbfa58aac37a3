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

export function encodeCursor(keyset: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(keyset)).toString("base64url");
}

/** The keyset a cursor continues from, or null when it is not one of ours (a 400 for the caller). */
export function decodeCursor<Keyset extends Record<string, string | number>>(cursor: string, shape: z.ZodType<Keyset>): Keyset | null {
  try {
    const parsed = shape.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A page of `item`: `{ data, nextCursor }`. */
export function pageOf<Item extends z.ZodType>(item: Item, id: string) {
  return z
    .object({
      data: z.array(item),
      nextCursor: z.string().nullable().meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    })
    .meta({ id });
}
