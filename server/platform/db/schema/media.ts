import { sql } from "drizzle-orm";
import { check, customType, index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth";

/**
 * Raw bytes. node-postgres hands bytea back as a Buffer and PGlite as a
 * Uint8Array; both become a Buffer here, so the server can send it as is.
 */
export const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType() {
    return "bytea";
  },
  fromDriver(value) {
    return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  },
});

/**
 * A profile photo as the server re-encoded it (server/domains/media/). Its id is a
 * hash of the owner and the encoded bytes, so an address never changes
 * meaning and is cached for a year. Kept in the database, so it works on the
 * embedded one and across processes on one PostgreSQL with no other service.
 */
export const photos = pgTable(
  "photos",
  {
    id: text().primaryKey(),
    uid: text()
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("photos_uid_idx").on(t.uid), check("photos_id_check", sql`${t.id} ~ '^[0-9a-f]{32}$'`)],
);

/** One size and format of a photo: the bytes the media address serves. */
export const photoVariants = pgTable(
  "photo_variants",
  {
    photoId: text()
      .notNull()
      .references(() => photos.id, { onDelete: "cascade" }),
    size: integer().notNull(),
    format: text().$type<"webp" | "avif">().notNull(),
    bytes: bytea().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.photoId, t.size, t.format] }),
    check("photo_variants_size_check", sql`${t.size} in (96, 192, 384)`),
    check("photo_variants_format_check", sql`${t.format} in ('webp', 'avif')`),
  ],
);
