import type { Db } from "#server/platform/db/client";
import { auditLog } from "#server/platform/db/schema";

/**
 * Every back-office action, by name. Each writes exactly one audit row, in the same transaction
 * as the change it records (a test walks this list). Add the name here when you add an action.
 */
export const AUDIT_ACTIONS = [
  "staff.grant",
  "staff.revoke",
  "account.suspend",
  "account.lift",
  "sponsor_company.add",
  "sponsor_company.edit",
  "sponsor_company.retire",
  "sponsor_company.import",
  "report.outcome",
  "bio_page.remove",
  "bio_page.restore",
  "opportunity.remove",
  "opportunity.restore",
  "reconciliation.run",
  "payment.refund",
  "deal.dispute_decide",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

/** Who acted: a staff member signed in, the command line, or a scheduled job. */
export type Actor = { kind: "staff"; id: string; email: string } | { kind: "command-line" } | { kind: "scheduled-job"; job: string };

export const COMMAND_LINE: Actor = { kind: "command-line" };

export type AuditEntry = {
  actor: Actor;
  action: AuditAction;
  subject: { type: string; id: string };
  reason?: string | null;
  /** The subject's relevant fields before and after the change (plain JSON). */
  before?: unknown;
  after?: unknown;
};

function actorColumns(actor: Actor): { actorId: string | null; actorLabel: string } {
  switch (actor.kind) {
    case "staff":
      return { actorId: actor.id, actorLabel: actor.email };
    case "command-line":
      return { actorId: null, actorLabel: "command line" };
    case "scheduled-job":
      return { actorId: null, actorLabel: `scheduled job ${actor.job}` };
  }
}

/** Appends one row. Pass the transaction that makes the change, so both land or neither does. */
export async function recordAudit(tx: Db, entry: AuditEntry, at = new Date()): Promise<void> {
  await tx.insert(auditLog).values({
    at,
    ...actorColumns(entry.actor),
    action: entry.action,
    subjectType: entry.subject.type,
    subjectId: entry.subject.id,
    reason: entry.reason ?? null,
    before: entry.before ?? null,
    after: entry.after ?? null,
  });
}
