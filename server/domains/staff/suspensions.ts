import { and, asc, eq, isNotNull, isNull, lte } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { accountSuspensions, session, user } from "#server/platform/db/schema";
import { suspensionEmail, suspensionLiftedEmail } from "#server/platform/email/messages";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { fieldRefusal, refusal, success, type Result } from "#server/platform/errors";
import { recordAudit, type Actor } from "#server/platform/audit/audit-log";

/**
 * Suspending an account (ADR 0051): it becomes a disabled account (SPEC §4) — no sign-in, every
 * session ends now, its public side stops (server/domains/accounts/active-owner.ts) — with a record of
 * who, why and until when, and a mail telling the person why and how to appeal. Lifting it, by
 * staff or by its end date passing, undoes all of that and tells them again.
 */

/** What the mail needs: the outbox and the site's name, support address and origin. */
export type SuspensionMail = Pick<NotificationDeps, "mailer" | "site">;

export const MAX_REASON_LENGTH = 2000;
export const LIFT_JOB = "lift-expired-suspensions";

type SuspendFields = { reason?: string; until?: string };

/**
 * The end date is a calendar date (the form's date input): the account comes back at 00:00 UTC
 * that day, and it must be a later day than today in UTC, so a suspension always lasts a while.
 */
export function parseUntil(value: string, now: Date): { until: Date | null } | { error: string } {
  const text = value.trim();
  if (!text) return { until: null };
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return { error: "Enter the end date as a date, or leave it empty." };
  const until = new Date(`${text}T00:00:00.000Z`);
  if (Number.isNaN(until.getTime()) || until.toISOString().slice(0, 10) !== text) return { error: "Enter a real date." };
  if (until.getTime() <= now.getTime()) return { error: "The end date must be in the future (a later day than today, UTC)." };
  return { until };
}

function parseReason(value: string): string | { error: string } {
  const reason = value.trim();
  if (!reason) return { error: "Say why: the reason is shown to the person and kept in the audit log." };
  if (reason.length > MAX_REASON_LENGTH) return { error: `Keep the reason under ${MAX_REASON_LENGTH} characters.` };
  return reason;
}

function actorId(actor: Actor): string | null {
  return actor.kind === "staff" ? actor.id : null;
}
function actorLabel(actor: Actor): string {
  return actor.kind === "staff" ? actor.email : actor.kind === "command-line" ? "command line" : `scheduled job ${actor.job}`;
}

/**
 * Suspends `uid`. Staff cannot suspend themselves, nor another admin: the role is revoked first
 * from the command line (npm run admin -- revoke), so one stolen staff session cannot lock the
 * other staff out.
 */
export async function suspendAccount(
  db: Db,
  mail: SuspensionMail,
  actor: Actor,
  input: { uid: string; reason: string; until: string },
  now = new Date(),
): Promise<Result<{ suspensionId: string }>> {
  const reason = parseReason(input.reason);
  const until = parseUntil(input.until, now);
  const fieldErrors: SuspendFields = {};
  if (typeof reason !== "string") fieldErrors.reason = reason.error;
  if ("error" in until) fieldErrors.until = until.error;
  if (typeof reason !== "string" || "error" in until) return fieldRefusal(fieldErrors);
  if (input.uid === actorId(actor)) return refusal("permission-denied", "OWN_ACCOUNT", "You cannot suspend your own account.");

  return db.transaction(async (tx) => {
    const [person] = await tx.select({ id: user.id, email: user.email, role: user.role, disabled: user.disabled }).from(user).where(eq(user.id, input.uid)).for("update");
    if (!person) return refusal("not-found", "NO_ACCOUNT", "No such account.");
    if (person.role === "admin") return refusal("aborted", "STAFF_ACCOUNT", "This account is staff. Revoke its staff role from the command line first (npm run admin -- revoke EMAIL).");
    const [open] = await tx.select({ id: accountSuspensions.id }).from(accountSuspensions).where(and(eq(accountSuspensions.uid, person.id), isNull(accountSuspensions.liftedAt)));
    if (open) return refusal("aborted", "ALREADY_SUSPENDED", "This account is already suspended.");

    const [row] = await tx
      .insert(accountSuspensions)
      .values({ uid: person.id, suspendedAt: now, suspendedById: actorId(actor), suspendedByLabel: actorLabel(actor), reason, until: until.until })
      .returning({ id: accountSuspensions.id });
    await tx.update(user).set({ disabled: true, updatedAt: now }).where(eq(user.id, person.id));
    // Signed out everywhere at once, not at their sessions' expiry (as disableAccount does).
    await tx.delete(session).where(eq(session.userId, person.id));
    await recordAudit(
      tx,
      { actor, action: "account.suspend", subject: { type: "user", id: person.id }, reason, before: { disabled: person.disabled }, after: { disabled: true, until: until.until?.toISOString() ?? null } },
      now,
    );
    await mail.mailer.sendWithin(tx, await suspensionEmail({ to: person.email, site: mail.site, reason, until: until.until }));
    return success({ suspensionId: row!.id });
  });
}

type OpenSuspension = { id: string; uid: string; until: Date | null };

/** Lifts one open suspension inside `tx`; false when it was already lifted (another process, a second click). */
async function liftOpen(tx: Db, mail: SuspensionMail, open: OpenSuspension, actor: Actor, reason: string, now: Date): Promise<boolean> {
  const [lifted] = await tx
    .update(accountSuspensions)
    .set({ liftedAt: now, liftedById: actorId(actor), liftedByLabel: actorLabel(actor), liftReason: reason })
    .where(and(eq(accountSuspensions.id, open.id), isNull(accountSuspensions.liftedAt)))
    .returning({ id: accountSuspensions.id });
  if (!lifted) return false;
  const [person] = await tx.update(user).set({ disabled: false, updatedAt: now }).where(eq(user.id, open.uid)).returning({ email: user.email });
  await recordAudit(tx, { actor, action: "account.lift", subject: { type: "user", id: open.uid }, reason, before: { disabled: true }, after: { disabled: false } }, now);
  if (person) await mail.mailer.sendWithin(tx, await suspensionLiftedEmail({ to: person.email, site: mail.site }));
  return true;
}

async function openSuspensionOf(tx: Db, uid: string): Promise<OpenSuspension | null> {
  const [open] = await tx
    .select({ id: accountSuspensions.id, uid: accountSuspensions.uid, until: accountSuspensions.until })
    .from(accountSuspensions)
    .where(and(eq(accountSuspensions.uid, uid), isNull(accountSuspensions.liftedAt)))
    .for("update");
  return open ?? null;
}

/** Staff lift a suspension, with a reason (kept in the history and the audit log). */
export async function liftSuspension(
  db: Db,
  mail: SuspensionMail,
  actor: Actor,
  input: { uid: string; reason: string },
  now = new Date(),
): Promise<Result> {
  const reason = parseReason(input.reason);
  if (typeof reason !== "string") return fieldRefusal({ liftReason: reason.error });
  return db.transaction(async (tx) => {
    const open = await openSuspensionOf(tx, input.uid);
    if (!open || !(await liftOpen(tx, mail, open, actor, reason, now))) return refusal("aborted", "NOT_SUSPENDED", "This account is not suspended.");
    return success();
  });
}

const EXPIRED_REASON = "The suspension's end date passed.";
const jobActor: Actor = { kind: "scheduled-job", job: LIFT_JOB };

/**
 * Lifts every suspension whose end date has passed; how many it lifted. Idempotent: each is lifted
 * in its own transaction only while still open, so two runs (or a sign-in racing the job) lift it once.
 */
export async function liftExpiredSuspensions(db: Db, mail: SuspensionMail, now = new Date()): Promise<number> {
  const due = await db
    .select({ id: accountSuspensions.id, uid: accountSuspensions.uid, until: accountSuspensions.until })
    .from(accountSuspensions)
    .where(and(isNull(accountSuspensions.liftedAt), isNotNull(accountSuspensions.until), lte(accountSuspensions.until, now)))
    .orderBy(asc(accountSuspensions.until))
    .limit(500);
  let lifted = 0;
  for (const open of due) {
    if (await db.transaction((tx) => liftOpen(tx, mail, open, jobActor, EXPIRED_REASON, now))) lifted += 1;
  }
  return lifted;
}

/**
 * At sign-in, a suspension whose end date has passed is lifted there and then rather than waiting
 * for the job's next run (ADR 0051). Returns whether the account is still disabled.
 */
export async function liftIfExpired(db: Db, mail: SuspensionMail, uid: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const open = await openSuspensionOf(tx, uid);
    if (open?.until && open.until.getTime() <= now.getTime()) await liftOpen(tx, mail, open, jobActor, EXPIRED_REASON, now);
    const [row] = await tx.select({ disabled: user.disabled }).from(user).where(eq(user.id, uid));
    return row?.disabled ?? false;
  });
}

/** Whether `uid` is disabled only by a suspension whose end date has passed (sign-in lets it through to be lifted). */
export async function suspensionHasEnded(db: Db, uid: string, now = new Date()): Promise<boolean> {
  const [open] = await db
    .select({ until: accountSuspensions.until })
    .from(accountSuspensions)
    .where(and(eq(accountSuspensions.uid, uid), isNull(accountSuspensions.liftedAt)));
  return Boolean(open?.until && open.until.getTime() <= now.getTime());
}
