import type { SponsorSessionKind } from "#server/platform/db/schema";
import { asc, eq, or, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { auditLog, bioPages, ledgerEntries, paymentEvents, refundRequests, sponsorSessions, user, type LedgerEntryKind, type RefundRequestStatus, type SponsorSessionStatus } from "#server/platform/db/schema";
import { domainError, success, type DomainError, type Success } from "#server/platform/errors";

/**
 * One payment as the back office reads it: the session, its creator and page, every ledger
 * row, every provider event that names it, and its refund with who issued it.
 */
export type IssuedBy =
  | { kind: "creator"; email: string | null }
  | { kind: "staff"; email: string | null; reason: string | null }
  /** A refund made in the provider's dashboard arrives with no requester. */
  | { kind: "provider-dashboard" };

export type PaymentRecord = {
  session: {
    id: string;
    created: Date;
    kind: SponsorSessionKind;
    status: SponsorSessionStatus;
    amount: number;
    currency: string;
    platformFee: number;
    sponsorEmail: string | null;
    provider: string;
    providerCheckoutId: string | null;
    paymentIntentId: string | null;
  };
  creator: { uid: string; email: string; name: string } | null;
  page: { name: string; ending: string } | null;
  ledger: { id: string; created: Date; kind: LedgerEntryKind; gross: number; providerFee: number; platformFee: number; net: number; currency: string; providerReference: string }[];
  events: { eventId: string; type: string; receivedAt: Date; handledAt: Date | null }[];
  refund: { status: RefundRequestStatus; attempt: number; providerRefundId: string | null; created: Date; updatedAt: Date; issuedBy: IssuedBy } | null;
};

export async function paymentRecord(db: Db, sessionId: string): Promise<Success<{ record: PaymentRecord }> | DomainError<"not-found">> {
  const [found] = await db
    .select({
      session: {
        id: sponsorSessions.id,
        created: sponsorSessions.created,
        kind: sponsorSessions.kind,
        status: sponsorSessions.status,
        amount: sponsorSessions.amount,
        currency: sponsorSessions.currency,
        platformFee: sponsorSessions.platformFee,
        sponsorEmail: sponsorSessions.sponsorEmail,
        provider: sponsorSessions.provider,
        providerCheckoutId: sponsorSessions.providerCheckoutId,
        paymentIntentId: sponsorSessions.paymentIntentId,
      },
      posterUid: sponsorSessions.posterUid,
      creatorEmail: user.email,
      creatorName: user.name,
      pageName: bioPages.name,
      pageEnding: bioPages.customEnding,
    })
    .from(sponsorSessions)
    .leftJoin(user, eq(user.id, sponsorSessions.posterUid))
    .leftJoin(bioPages, eq(bioPages.id, sponsorSessions.bioPageId))
    .where(eq(sponsorSessions.id, sessionId));
  if (!found) return domainError("not-found", "There is no such payment.");
  const { session } = found;

  const ledger = await db
    .select({
      id: ledgerEntries.id,
      created: ledgerEntries.created,
      kind: ledgerEntries.kind,
      gross: ledgerEntries.gross,
      providerFee: ledgerEntries.providerFee,
      platformFee: ledgerEntries.platformFee,
      net: ledgerEntries.net,
      currency: ledgerEntries.currency,
      providerReference: ledgerEntries.providerReference,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.sessionId, sessionId))
    .orderBy(asc(ledgerEntries.created), asc(ledgerEntries.id));

  // Events are kept as the provider's normalised payload: those naming the session, its checkout or its payment.
  const names = [sql`${paymentEvents.payload}->>'sessionId' = ${session.id}`];
  if (session.providerCheckoutId) names.push(sql`${paymentEvents.payload}->>'checkoutId' = ${session.providerCheckoutId}`);
  if (session.paymentIntentId) names.push(sql`${paymentEvents.payload}->>'paymentIntentId' = ${session.paymentIntentId}`);
  const events = await db
    .select({ eventId: paymentEvents.eventId, type: paymentEvents.type, receivedAt: paymentEvents.receivedAt, handledAt: paymentEvents.handledAt })
    .from(paymentEvents)
    .where(or(...names))
    .orderBy(asc(paymentEvents.receivedAt), asc(paymentEvents.eventId));

  const [request] = await db.select().from(refundRequests).where(eq(refundRequests.sessionId, sessionId));
  let refund: PaymentRecord["refund"] = null;
  if (request) refund = { status: request.status, attempt: request.attempt, providerRefundId: request.providerRefundId, created: request.created, updatedAt: request.updatedAt, issuedBy: await issuedBy(db, request.requestedBy, found.posterUid, sessionId) };

  return success({
    record: {
      session,
      creator: found.posterUid && found.creatorEmail ? { uid: found.posterUid, email: found.creatorEmail, name: found.creatorName ?? "" } : null,
      page: found.pageEnding ? { name: found.pageName ?? found.pageEnding, ending: found.pageEnding } : null,
      ledger,
      events,
      refund,
    },
  });
}

/**
 * Who issued a refund: no requester is the provider's dashboard; the creator is the creator;
 * anyone else could only be staff (refundAsStaff), whose audit row holds their reason.
 */
async function issuedBy(db: Db, requestedBy: string | null, posterUid: string | null, sessionId: string): Promise<IssuedBy> {
  if (!requestedBy) return { kind: "provider-dashboard" };
  const [requester] = await db.select({ email: user.email }).from(user).where(eq(user.id, requestedBy));
  if (requestedBy === posterUid) return { kind: "creator", email: requester?.email ?? null };
  const [audit] = await db
    .select({ reason: auditLog.reason, actorLabel: auditLog.actorLabel })
    .from(auditLog)
    .where(sql`${auditLog.subjectType} = 'sponsor_session' and ${auditLog.action} = 'payment.refund' and ${auditLog.subjectId} = ${sessionId} and ${auditLog.actorId} = ${requestedBy}`)
    .orderBy(sql`${auditLog.at} desc`)
    .limit(1);
  return { kind: "staff", email: requester?.email ?? audit?.actorLabel ?? null, reason: audit?.reason ?? null };
}
