import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { z } from "zod";

/**
 * Cursors for lists paged by keyset. A cursor is opaque to whoever holds it (base64url JSON of
 * the keyset it goes on from), so the order a list is kept in can change without breaking links
 * and API callers; one that does not decode is null, for the caller to refuse or ignore.
 */
export function encodeCursor(keyset: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(keyset)).toString("base64url");
}

/** The keyset a cursor goes on from, or null when it is not one of ours. */
export function decodeCursor<Keyset extends Record<string, string | number>>(cursor: string, shape: z.ZodType<Keyset>): Keyset | null {
  try {
    const parsed = shape.safeParse(JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The place in a list kept newest first by (a timestamptz, an id): the last row shown, its instant
 * in microseconds since 1970 and its id. Microseconds, as text: the database stamps rows to the
 * microsecond, a JavaScript Date keeps only milliseconds (a cursor cut to the millisecond skips the
 * rows stamped later within it), and a count of microseconds is past a double's exact integers.
 */
export type TimeKeyset = { micros: string; id: string };

// Up to 17 digits: any instant before the year 5000, and never one the database cannot hold.
export const timeKeysetShape = z.object({ micros: z.string().regex(/^\d{1,17}$/), id: z.string().min(1).max(100) });

export const encodeTimeKeyset = (keyset: TimeKeyset): string => encodeCursor({ micros: keyset.micros, id: keyset.id });

/** The place a cursor names; null for none, or for one that is not a time keyset. */
export const decodeTimeKeyset = (cursor: string | null | undefined): TimeKeyset | null => (cursor ? decodeCursor(cursor, timeKeysetShape) : null);

/** A timestamptz column as its microseconds since 1970, to select beside each row for its keyset. */
export const microsOf = (column: AnyColumn): SQL<string> => sql<string>`(extract(epoch from ${column}) * 1000000)::bigint::text`;

/** The rows after `keyset` in (time, id) descending order; the row comparison keeps an index on (time, id) in use. */
export const afterTimeKeyset = (time: AnyColumn, id: AnyColumn, keyset: TimeKeyset): SQL =>
  sql`(${time}, ${id}) < (timestamptz 'epoch' + ${keyset.micros}::bigint * interval '1 microsecond', ${keyset.id})`;

/** Newest first by (micros, id), as the database orders the same rows. */
export function newestFirst(a: TimeKeyset, b: TimeKeyset): number {
  const at = BigInt(a.micros) - BigInt(b.micros);
  if (at !== 0n) return at > 0n ? -1 : 1;
  return a.id === b.id ? 0 : a.id < b.id ? 1 : -1;
}
