import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { deals } from "./deals";
import { bytea } from "./media";

/**
 * The sponsor's brief of a deal: one per deal, written once the terms are agreed and editable by
 * the sponsor until the deal ends (server/domains/deals/brief.ts). Its assets are `deal_files`.
 */
export const dealBriefs = pgTable(
  "deal_briefs",
  {
    dealId: text()
      .primaryKey()
      .references(() => deals.id, { onDelete: "cascade" }),
    body: text().notNull().default(""),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("deal_briefs_body_check", sql`char_length(${t.body}) <= 5000`)],
);

/** What a deal's file belongs to: a message of the thread, the brief's assets, or a submission's screenshot. */
export const DEAL_FILE_PLACES = ["message", "brief", "submission"] as const;
export type DealFilePlace = (typeof DEAL_FILE_PLACES)[number];
export const DEAL_FILE_KINDS = ["image", "pdf"] as const;
export type DealFileKind = (typeof DEAL_FILE_KINDS)[number];

/**
 * A file in a deal room, kept in the database as profile photos are (server/platform/db/schema/media.ts):
 * it works on the embedded database and across processes with no other service, and goes with the
 * deal. Images hold the server's re-encoding (never the upload's bytes) and a small copy for the
 * thread; PDFs hold the checked bytes as sent. Only the deal's two sides read them.
 */
export const dealFiles = pgTable(
  "deal_files",
  {
    id: text().primaryKey(),
    dealId: text()
      .notNull()
      .references(() => deals.id, { onDelete: "cascade" }),
    place: text().$type<DealFilePlace>().notNull(),
    // The message's number (place = message), or the deliverable and round (place = submission).
    messageSeq: integer(),
    deliverable: integer(),
    round: integer(),
    // Null once the uploader deleted their account: the deal keeps what was shared.
    uploaderUid: text().references(() => user.id, { onDelete: "set null" }),
    kind: text().$type<DealFileKind>().notNull(),
    contentType: text().notNull(),
    // The name as sent, cleaned (no paths, no control characters); shown and offered for download.
    name: text().notNull(),
    size: integer().notNull(),
    width: integer(),
    height: integer(),
    bytes: bytea().notNull(),
    thumb: bytea(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("deal_files_deal_idx").on(t.dealId, t.place),
    check("deal_files_place_check", sql`${t.place} in ('message', 'brief', 'submission')`),
    check("deal_files_kind_check", sql`${t.kind} in ('image', 'pdf')`),
    check(
      "deal_files_owner_check",
      sql`(${t.place} = 'message' and ${t.messageSeq} is not null) or (${t.place} = 'submission' and ${t.deliverable} is not null and ${t.round} is not null) or ${t.place} = 'brief'`,
    ),
    check("deal_files_size_check", sql`${t.size} between 1 and 10485760`),
  ],
);
