import { index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Which client network was last counted on which bio page (or link), and
 * when, shared by every app process on the database so that one network
 * counts once per window whichever process it reaches (ADR 0028). `key` is a
 * keyed hash of (network, page, link type), never an address; rows older than
 * the window are pruned by a scheduled job (server/domains/bio/host/view-counter.ts).
 * No foreign key to the page: the key does not name it in a readable form,
 * and a deleted page's rows go with the next prune.
 */
export const bioCountedVisits = pgTable(
  "bio_counted_visits",
  {
    key: text().primaryKey(),
    countedAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index("bio_counted_visits_counted_at_idx").on(t.countedAt)],
);
