import { and, eq, lt } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { refundRequests } from "#server/platform/db/schema";
import { domainError, refusal, success, type DomainError, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import { lockSessionById, type LockedSession } from "#server/domains/payments/checkout/locked-sessions";

/**
 * A claim that was never carried to the provider (the process died between
 * claim and call) may be taken over after this long; the provider call is
 * made with the same idempotency key, so a call that did go through is
 * answered with the same refund, not a second one.
 */
export const REFUND_CLAIM_LEASE_MS = 5 * 60_000;

export type RefundResult =
  /** The provider took the refund (or had it already); the webhook marks the session refunded. */
  | { kind: "SUCCESS"; status: "pending" | "succeeded"; alreadyRequested: boolean }
  | DomainError<"not-found" | "unavailable">
  /** NOT_REFUNDABLE: the payment is not completed; REFUND_DECLINED: the provider said no (API callers branch on these). */
  | Refusal<"aborted", "NOT_REFUNDABLE" | "REFUND_DECLINED">;

const idempotencyKey = (sessionId: string, attempt: number) => (attempt === 1 ? `refund_${sessionId}` : `refund_${sessionId}_${attempt}`);

/** This call asks the provider (`CLAIMED`), or another already did (`ALREADY`, with where that refund stands). */
type Claim =
  | Success<{ outcome: "CLAIMED"; attempt: number; paymentIntentId: string }>
  | Success<{ outcome: "ALREADY"; status: "pending" | "succeeded" }>
  | DomainError<"not-found">
  | Refusal<"aborted", "NOT_REFUNDABLE">;

/**
 * Who asks for a refund: the requester's uid (kept on the request), whether they may refund this
 * session, and what else must land with the claim (staff's audit row) in its transaction.
 */
export type Requester = {
  uid: string;
  mayRefund(session: LockedSession): boolean;
  onClaimed?(tx: Db, session: LockedSession): Promise<void>;
};

/** The creator, for their own payments only. */
const owner = (uid: string): Requester => ({ uid, mayRefund: (session) => session.posterUid === uid });

/** Decides, under the session's row lock, whether this call is the one that asks the provider. */
async function claimRefund(db: Db, requester: Requester, sessionId: string): Promise<Claim> {
  const uid = requester.uid;
  return db.transaction(async (tx): Promise<Claim> => {
    const session = await lockSessionById(tx, sessionId);
    // Someone else's payment is reported as missing, not as forbidden (SPEC: only the owner ever sees a session).
    if (!session || !requester.mayRefund(session)) return domainError("not-found", "There is no such payment.");
    const [request] = await tx.select().from(refundRequests).where(eq(refundRequests.sessionId, sessionId)).for("update");
    if (request?.status === "succeeded" || session.status === "refunded") return success({ outcome: "ALREADY", status: "succeeded" });
    if (request?.status === "pending") return success({ outcome: "ALREADY", status: "pending" });
    if (session.status !== "completed" || !session.paymentIntentId) {
      return refusal("aborted", "NOT_REFUNDABLE", `Only a completed payment can be refunded; this one is ${session.status}.`);
    }
    const now = new Date();
    if (!request) {
      await tx.insert(refundRequests).values({ sessionId, requestedBy: uid, status: "requested" });
      await requester.onClaimed?.(tx, session);
      return success({ outcome: "CLAIMED", attempt: 1, paymentIntentId: session.paymentIntentId });
    }
    if (request.status === "failed") {
      // The provider refused the last try: a new try, with a key of its own.
      const attempt = request.attempt + 1;
      await tx.update(refundRequests).set({ status: "requested", attempt, requestedBy: uid, updatedAt: now }).where(eq(refundRequests.sessionId, sessionId));
      await requester.onClaimed?.(tx, session);
      return success({ outcome: "CLAIMED", attempt, paymentIntentId: session.paymentIntentId });
    }
    // "requested": another click is asking the provider right now — unless that claim is old and was abandoned.
    const [taken] = await tx
      .update(refundRequests)
      .set({ updatedAt: now })
      .where(and(eq(refundRequests.sessionId, sessionId), eq(refundRequests.status, "requested"), lt(refundRequests.updatedAt, new Date(now.getTime() - REFUND_CLAIM_LEASE_MS))))
      .returning({ attempt: refundRequests.attempt });
    if (!taken) return success({ outcome: "ALREADY", status: "pending" });
    await requester.onClaimed?.(tx, session);
    return success({ outcome: "CLAIMED", attempt: taken.attempt, paymentIntentId: session.paymentIntentId });
  });
}

/**
 * Refunds a sponsor payment whole (SPEC §7.1 refundSponsorship): the owner
 * only, a completed payment only, and one refund at the provider however many
 * clicks, tabs or processes ask. The claim (a refund_requests row, under the
 * session's lock) decides who calls; the call itself is made outside any
 * transaction with the idempotency key `refund_<sessionId>`; its answer is
 * recorded as pending. The provider's webhook (charge.refunded /
 * refund.updated) writes the refund entry and makes the session refunded.
 */
export function refundSponsorship(db: Db, provider: PaymentProvider, input: { uid: string; sessionId: string }): Promise<RefundResult> {
  return refundAs(db, provider, owner(input.uid), input.sessionId);
}

/** The refund itself, for whoever may ask (the owner above; staff in server/domains/payments/refunds/staff-refund.ts). */
export async function refundAs(db: Db, provider: PaymentProvider, requester: Requester, sessionId: string): Promise<RefundResult> {
  const claim = await claimRefund(db, requester, sessionId);
  if (claim.kind === "ERROR") return claim;
  if (claim.outcome === "ALREADY") return { kind: "SUCCESS", status: claim.status, alreadyRequested: true };

  let refund;
  try {
    refund = await provider.refundPayment({ idempotencyKey: idempotencyKey(sessionId, claim.attempt), paymentIntentId: claim.paymentIntentId });
  } catch {
    // Unknown whether it reached the provider: the claim stays, and a try after the lease repeats the same key.
    return domainError("unavailable", "The refund could not be started. Please try again in a few minutes.");
  }
  const failed = refund.status === "failed" || refund.status === "canceled";
  // Only a claim still "requested" is moved on: the webhook may already have said succeeded.
  await db
    .update(refundRequests)
    .set({ status: failed ? "failed" : "pending", providerRefundId: refund.refundId, updatedAt: new Date() })
    .where(and(eq(refundRequests.sessionId, sessionId), eq(refundRequests.status, "requested")));
  if (failed) return refusal("aborted", "REFUND_DECLINED", "The payment provider declined the refund.");
  return { kind: "SUCCESS", status: refund.status === "succeeded" ? "succeeded" : "pending", alreadyRequested: false };
}

/** Whether a session has a refund on its way (its card says so; the status stays completed until the provider confirms). */
export async function refundInFlight(db: Db, sessionId: string): Promise<boolean> {
  const [row] = await db.select({ status: refundRequests.status }).from(refundRequests).where(eq(refundRequests.sessionId, sessionId));
  return row?.status === "requested" || row?.status === "pending";
}
