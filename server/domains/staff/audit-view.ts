import { and, desc, eq, ilike, lt, or, type SQL } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { auditLog } from "#server/platform/db/schema";
import { csvLine, safeText } from "#isomorphic/csv";

/** Reading the audit log: the back office's page (newest first, keyset-paged) and its CSV export. */

export const AUDIT_PAGE_SIZE = 25;
const CSV_BATCH = 500;

export type AuditFilters = { action?: string; actor?: string; subject?: string };
export type AuditRow = typeof auditLog.$inferSelect;

/** "<ISO time>_<id>": the last row of a page, rows after it in newest-first order come next. */
export function auditCursor(row: Pick<AuditRow, "at" | "id">): string {
  return `${row.at.toISOString()}_${row.id}`;
}

function parseCursor(cursor: string | null | undefined): { at: Date; id: string } | null {
  const match = cursor ? /^(.+)_([0-9a-f-]{36})$/.exec(cursor) : null;
  const at = match ? new Date(match[1]!) : null;
  return match && at && !Number.isNaN(at.getTime()) ? { at, id: match[2]! } : null;
}

const likeText = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

function conditions(filters: AuditFilters, after: { at: Date; id: string } | null): SQL | undefined {
  const where: (SQL | undefined)[] = [];
  if (filters.action?.trim()) where.push(eq(auditLog.action, filters.action.trim()));
  // The actor by any part of their label (an email, "command line", "scheduled job …") or exactly by id.
  if (filters.actor?.trim()) where.push(or(ilike(auditLog.actorLabel, likeText(filters.actor.trim())), eq(auditLog.actorId, filters.actor.trim())));
  if (filters.subject?.trim()) where.push(eq(auditLog.subjectId, filters.subject.trim()));
  if (after) where.push(or(lt(auditLog.at, after.at), and(eq(auditLog.at, after.at), lt(auditLog.id, after.id))));
  return where.length ? and(...where) : undefined;
}

async function batch(db: Db, filters: AuditFilters, after: { at: Date; id: string } | null, limit: number): Promise<AuditRow[]> {
  return db.select().from(auditLog).where(conditions(filters, after)).orderBy(desc(auditLog.at), desc(auditLog.id)).limit(limit);
}

/** One page of the log, newest first, and the cursor of the next (null on the last). */
export async function listAudit(db: Db, filters: AuditFilters, after?: string | null): Promise<{ rows: AuditRow[]; next: string | null }> {
  const rows = await batch(db, filters, parseCursor(after), AUDIT_PAGE_SIZE + 1);
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  return { rows: page, next: rows.length > AUDIT_PAGE_SIZE ? auditCursor(page.at(-1)!) : null };
}

export type FieldChange = { field: string; before: string; after: string };

const shown = (value: unknown) => (value === undefined ? "—" : JSON.stringify(value));

/** Before → after, field by field, only the fields that differ (a plain value is one field, "value"). */
export function auditChanges(before: unknown, after: unknown): FieldChange[] {
  const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (before === null && after === null) return [];
  if (!isObject(before ?? {}) || !isObject(after ?? {})) return [{ field: "value", before: shown(before), after: shown(after) }];
  const from = (before ?? {}) as Record<string, unknown>;
  const to = (after ?? {}) as Record<string, unknown>;
  const fields = [...new Set([...Object.keys(from), ...Object.keys(to)])];
  return fields
    .filter((field) => JSON.stringify(from[field]) !== JSON.stringify(to[field]))
    .map((field) => ({ field, before: shown(from[field]), after: shown(to[field]) }));
}

export const AUDIT_CSV_COLUMNS = ["At (UTC)", "Actor", "Actor id", "Action", "Subject type", "Subject id", "Reason", "Before", "After"] as const;

/** One CSV line of a row; every cell is text someone could have typed, so each is made formula-safe. */
export function auditCsvLine(row: AuditRow): string {
  const json = (value: unknown) => (value === null || value === undefined ? "" : JSON.stringify(value));
  return csvLine(
    [row.at.toISOString(), row.actorLabel, row.actorId ?? "", row.action, row.subjectType, row.subjectId, row.reason ?? "", json(row.before), json(row.after)].map(safeText),
  );
}

/**
 * The whole (filtered) log as CSV, newest first, streamed in batches so a large log is never held
 * in memory at once. Starts with a BOM so spreadsheets read it as UTF-8.
 */
export function auditCsv(db: Db, filters: AuditFilters, now = new Date(), batchSize = CSV_BATCH): { filename: string; body: ReadableStream<Uint8Array> } {
  const encoder = new TextEncoder();
  let after: { at: Date; id: string } | null = null;
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${csvLine(AUDIT_CSV_COLUMNS)}\r\n`));
        return;
      }
      const rows = await batch(db, filters, after, batchSize);
      if (rows.length) controller.enqueue(encoder.encode(rows.map((row) => `${auditCsvLine(row)}\r\n`).join("")));
      if (rows.length < batchSize) controller.close();
      else after = { at: rows.at(-1)!.at, id: rows.at(-1)!.id };
    },
  });
  return { filename: `audit-log-${now.toISOString().slice(0, 10)}.csv`, body };
}
