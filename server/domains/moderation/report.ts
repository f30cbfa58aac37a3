import { and, eq } from "drizzle-orm";
import { rateLimitSubject } from "#server/platform/abuse/client-ip";
import { consumeRateLimit, rateLimitKey, retryMessage } from "#server/platform/abuse/rate-limit";
import { REPORT_RATE_LIMITS } from "#server/platform/abuse/rules";
import type { Db } from "#server/platform/db/client";
import { contentReports } from "#server/platform/db/schema";
import { fieldRefusal, refusal, success } from "#server/platform/errors";
import { isReportReason, REPORT_NOTE_MAX, type ReportTargetType } from "#isomorphic/report-reasons";
import { itemByAddress } from "./targets";

export type ReportInput = {
  type: ReportTargetType;
  /** A bio page's ending or an opportunity's id, as the form carried it. */
  address: string;
  reason: string;
  note: string;
  /** Typed by a guest; ignored for a signed-in reporter, whose account address is used. */
  email: string;
};

/** Who reports: the client's address always, the account when signed in. */
export type Reporter = { ip: string; account: { id: string; email: string } | null };

export type ReportFieldErrors = Partial<Record<"reason" | "note" | "email", string>>;

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;
// Control characters but tab and newlines: they render as nothing and hide text from staff.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;

/** The person is thanked the same way whether their report is new or a repeat of one still open. */
export const REPORT_THANKS = "Thank you. Your report was received and our team will review it. If you gave an email address, we'll tell you the outcome.";

/** The note as kept: control characters dropped, trimmed. */
export function cleanNote(note: string): string {
  return note.replace(CONTROL, "").trim();
}

/**
 * A report of a bio page or an opportunity (SPEC §1 content policy, ADR 0050). One open report
 * per reporter (the account, else the client network) and item: a repeat is thanked and not
 * counted again, nor against the rate limit. New reports are limited per reporter.
 */
export async function submitReport(db: Db, input: ReportInput, reporter: Reporter, now = new Date()) {
  const errors: ReportFieldErrors = {};
  if (!isReportReason(input.reason)) errors.reason = "Choose what is wrong.";
  const note = cleanNote(input.note);
  if (note.length > REPORT_NOTE_MAX) errors.note = `Keep the note to ${REPORT_NOTE_MAX} characters or fewer.`;
  const typed = input.email.trim();
  if (!reporter.account && typed && (typed.length > 320 || !EMAIL.test(typed))) errors.email = "Enter an email address like name@example.com, or leave it empty.";
  if (Object.keys(errors).length > 0) return fieldRefusal(errors);

  const item = await itemByAddress(db, input.type, input.address);
  if (!item || item.removedAt) return refusal("not-found", "NO_SUCH_ITEM", "There is nothing to report at this address: it may have been deleted or taken down already.");

  const reporterKey = reporter.account ? `user:${reporter.account.id}` : rateLimitKey("net", rateLimitSubject(reporter.ip));
  const open = and(eq(contentReports.targetType, item.type), eq(contentReports.targetId, item.id), eq(contentReports.reporterKey, reporterKey), eq(contentReports.status, "open"));
  const [already] = await db.select({ id: contentReports.id }).from(contentReports).where(open);
  if (already) return success({ counted: false });

  const allowed = await consumeRateLimit(db, rateLimitKey("report", reporterKey), REPORT_RATE_LIMITS.network, now);
  if (!allowed.allowed) return refusal("resource-exhausted", "TOO_MANY_REPORTS", retryMessage(allowed.retryAfterSeconds), { retryAfterSeconds: allowed.retryAfterSeconds });

  const written = await db
    .insert(contentReports)
    .values({
      targetType: item.type,
      targetId: item.id,
      reason: input.reason,
      note,
      reporterKey,
      reporterUid: reporter.account?.id ?? null,
      reporterEmail: reporter.account ? reporter.account.email : typed || null,
      createdAt: now,
    })
    // Two sends at once: the partial unique index keeps one; the other is the same thanks.
    .onConflictDoNothing()
    .returning({ id: contentReports.id });
  return success({ counted: written.length > 0 });
}

/** What the report form names: the item, or a not-found refusal (none, or already taken down). */
export async function reportTarget(db: Db, type: ReportTargetType, address: string) {
  const item = await itemByAddress(db, type, address);
  if (!item || item.removedAt) return refusal("not-found", "NO_SUCH_ITEM", "There is nothing to report at this address: it may have been deleted or taken down already.");
  return success({ target: { type: item.type, address: item.address, title: item.title } });
}

/** The form's query: `?page={ending}` or `?opportunity={id}`. */
export function reportQuery(params: URLSearchParams): { type: ReportTargetType; address: string } | null {
  const page = params.get("page");
  if (page) return { type: "bio_page", address: page };
  const opportunity = params.get("opportunity");
  return opportunity ? { type: "opportunity", address: opportunity } : null;
}
