import { and, asc, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { contentReports } from "#server/platform/db/schema";
import { reportOutcomeEmail } from "#server/platform/email/messages";
import { refusal, success } from "#server/platform/errors";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";
import type { ReportStatus, ReportTargetType } from "#isomorphic/report-reasons";
import { itemById, type ContentItem } from "./targets";
import { checkReason, itemLabel, takeDown, type ModerationDeps } from "./takedown";

export function isTargetType(value: string): value is ReportTargetType {
  return value === "bio_page" || value === "opportunity";
}

/** One reported item in a tab of the queue. */
export type QueueRow = { item: ContentItem; reports: number; reasons: string[]; oldest: Date; resolvedAt: Date | null };

const QUEUE_LIMIT = 200;

/** The queue, one row per reported item: open ones oldest report first, resolved ones newest decision first. */
export async function listReportQueue(db: Db, status: ReportStatus): Promise<QueueRow[]> {
  const resolvedAt = sql<Date | null>`max(${contentReports.resolvedAt})`.mapWith((value) => (value === null ? null : new Date(value as string)));
  const oldest = sql<Date>`min(${contentReports.createdAt})`.mapWith((value) => new Date(value as string));
  const rows = await db
    .select({
      targetType: contentReports.targetType,
      targetId: contentReports.targetId,
      reports: sql<number>`count(*)`.mapWith(Number),
      reasons: sql<string[]>`array_agg(distinct ${contentReports.reason})`,
      oldest,
      resolvedAt,
    })
    .from(contentReports)
    .where(eq(contentReports.status, status))
    .groupBy(contentReports.targetType, contentReports.targetId)
    .orderBy(status === "open" ? sql`min(${contentReports.createdAt}) asc` : sql`max(${contentReports.resolvedAt}) desc`)
    .limit(QUEUE_LIMIT);
  const items = await Promise.all(rows.map((row) => (isTargetType(row.targetType) ? itemById(db, row.targetType, row.targetId) : null)));
  return rows.flatMap((row, i) => {
    const item = items[i];
    return item ? [{ item, reports: row.reports, reasons: [...row.reasons].sort(), oldest: row.oldest, resolvedAt: row.resolvedAt }] : [];
  });
}

export type ReportRow = Pick<typeof contentReports.$inferSelect, "id" | "reason" | "note" | "status" | "createdAt" | "resolvedAt" | "resolvedBy" | "resolution"> & { hasEmail: boolean };

/** One reported item and each of its reports, oldest first; null when the item is gone. */
export async function reportedItem(db: Db, type: ReportTargetType, id: string) {
  const item = await itemById(db, type, id);
  if (!item) return null;
  const rows = await db
    .select()
    .from(contentReports)
    .where(and(eq(contentReports.targetType, type), eq(contentReports.targetId, id)))
    .orderBy(asc(contentReports.createdAt));
  const reports: ReportRow[] = rows.map((row) => ({
    id: row.id,
    reason: row.reason,
    note: row.note,
    status: row.status,
    createdAt: row.createdAt,
    resolvedAt: row.resolvedAt,
    resolvedBy: row.resolvedBy,
    resolution: row.resolution,
    hasEmail: row.reporterEmail !== null,
  }));
  return { item, reports };
}

export type Outcome = "remove" | "dismiss";

/**
 * Decides every open report of one item (ADR 0050): "remove" takes the item down (unless it is
 * down already) and marks them actioned, "dismiss" marks them dismissed. One `report.outcome`
 * audit row, and every reporter who gave an address gets one mail with the outcome, all in one
 * transaction.
 */
export async function resolveReports(db: Db, deps: ModerationDeps, actor: Actor, target: { type: ReportTargetType; id: string }, outcome: Outcome, reason: string, now = new Date()) {
  const checked = checkReason(reason);
  if (checked.kind === "ERROR") return checked;
  return db.transaction(async (tx) => {
    const item = await itemById(tx, target.type, target.id);
    if (!item) return refusal("not-found", "NO_SUCH_ITEM", "There is no such bio page or opportunity.");
    const open = and(eq(contentReports.targetType, item.type), eq(contentReports.targetId, item.id), eq(contentReports.status, "open"));
    const status = outcome === "remove" ? "actioned" : "dismissed";
    const decided = await tx
      .update(contentReports)
      .set({ status, resolvedAt: now, resolvedBy: actor.kind === "staff" ? actor.email : "command line", resolution: checked.text })
      .where(open)
      .returning({ id: contentReports.id, email: contentReports.reporterEmail });
    if (decided.length === 0) return refusal("aborted", "NO_OPEN_REPORTS", "This item has no open reports: someone decided them already.");
    if (outcome === "remove" && !item.removedAt) await takeDown(tx, deps, actor, item, checked.text, now);
    await recordAudit(tx, { actor, action: "report.outcome", subject: { type: item.type, id: item.id }, reason: checked.text, before: { status: "open", reports: decided.length }, after: { status } }, now);
    const emails = [...new Set(decided.flatMap((row) => (row.email ? [row.email.toLowerCase()] : [])))];
    for (const to of emails) {
      const mail = await reportOutcomeEmail({ to, site: deps.site, itemLabel: itemLabel(item, "the"), outcome: status, guidelinesUrl: `${deps.site.publicOrigin}/support/reporting` });
      await deps.mailer.sendWithin(tx, mail);
    }
    return success({ item, reports: decided.length, mailed: emails.length, status });
  });
}
