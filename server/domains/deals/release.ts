import { and, eq, sql } from "drizzle-orm";
import type { NotificationDeps } from "#server/domains/notifications/send";
import { recordDealRelease } from "#server/domains/payments/ledger/deal-ledger";
import type { Db } from "#server/platform/db/client";
import { connectedAccounts, dealActivity, dealFundings, deals, dealTerms, ledgerEntries } from "#server/platform/db/schema";
import type { PaymentProvider } from "#server/providers/payments/port";
import { transferGroupOf } from "./funding";
import { heldSoFar } from "./held-refunds";
import { tellBothSides } from "./notices";
import { platformMay } from "./transitions";
import { acceptedTerms, everyDeliverableApproved } from "./approvals";

/**
 * Paying the creator (ADR 0080): once every deliverable of a booked deal is approved, the creator's
 * share of the held charge (the price less the platform's fee fixed at funding) is transferred to
 * their connected account, tied to the charge and the deal's transfer group, and written as one
 * deal_release row; the deal is then completed along the table's `complete` edge.
 *
 * The transfer is made outside any transaction (no network call holds a row lock) with a key from
 * the funding's id, so a second try, by another process or after a crash, gets the same transfer
 * back and the ledger's unique reference writes it once. Whatever fails is tried again by the
 * scheduled sweep (`releaseDueDeals`).
 */

export type ReleaseOutcome = "RELEASED" | "ALREADY_RELEASED" | "NOT_DUE" | "NO_PAYOUT_ACCOUNT";


/** What a release needs to know about a deal, when it is due: funded, and every deliverable approved. */
async function dueRelease(db: Db, dealId: string) {
  const [row] = await db
    .select({
      deal: deals,
      funding: dealFundings,
      accountId: connectedAccounts.providerAccountId,
    })
    .from(deals)
    .innerJoin(dealTerms, acceptedTerms)
    .innerJoin(dealFundings, and(eq(dealFundings.dealId, deals.id), eq(dealFundings.state, "paid")))
    .leftJoin(connectedAccounts, eq(connectedAccounts.uid, deals.creatorUid))
    .where(and(eq(deals.id, dealId), eq(deals.state, "funded"), everyDeliverableApproved));
  return row ?? null;
}

/** Releases one deal's money when it is due; safe to call any number of times, from any process. */
export async function releaseDeal(db: Db, provider: Pick<PaymentProvider, "createTransfer">, deps: NotificationDeps, dealId: string, now = new Date()): Promise<ReleaseOutcome> {
  const due = await dueRelease(db, dealId);
  if (!due) return "NOT_DUE";
  const { funding, accountId } = due;
  if (!accountId || !funding.chargeId) return "NO_PAYOUT_ACCOUNT";
  const share = funding.amount - funding.platformFee;
  const { transferId } = await provider.createTransfer({
    idempotencyKey: `deal_release_${funding.id}`,
    destinationAccountId: accountId,
    amount: share,
    currency: funding.currency,
    sourceChargeId: funding.chargeId,
    transferGroup: transferGroupOf(dealId),
  });
  return db.transaction(async (tx) => {
    // The funding's lock, which a held refund's writer takes too (and before the deal's, as settling does): a
    // refund made at the provider after the transfer, and written before this row, is counted here.
    await tx.select({ id: dealFundings.id }).from(dealFundings).where(eq(dealFundings.id, funding.id)).for("update");
    const [deal] = await tx.select().from(deals).where(eq(deals.id, dealId)).for("update");
    const [known] = await tx.select({ id: ledgerEntries.id }).from(ledgerEntries).where(and(eq(ledgerEntries.kind, "deal_release"), eq(ledgerEntries.providerReference, transferId)));
    if (!known) {
      // As for refunds, the rows never say more went out than came in: the transfer is left for reconciliation
      // to show and staff to settle, and the sweep logs the deal on every run until they do.
      const { paid, out } = await heldSoFar(tx, funding.id);
      if (out + share > paid) throw new Error(`deal ${dealId}: its release (${share}) and what went out before (${out}) would pass what was paid (${paid}); not written`);
    }
    const written = await recordDealRelease(tx, { fundingId: funding.id, transferId, amount: share, currency: funding.currency });
    if (written.outcome === "ALREADY_RECORDED" || !deal || !platformMay("complete", deal.state)) return "ALREADY_RELEASED" as const;
    await tx.update(deals).set({ state: "completed", updatedAt: now }).where(eq(deals.id, deal.id));
    await tx.insert(dealActivity).values({
      dealId: deal.id,
      seq: sql`(select coalesce(max(${dealActivity.seq}), 0) + 1 from ${dealActivity} where ${dealActivity.dealId} = ${deal.id})`,
      action: "complete",
      actorUid: null,
      fromState: deal.state,
      toState: "completed",
      termsVersion: funding.termsVersion,
      network: null,
      at: now,
    });
    await tellBothSides(tx, deps, { deal, news: "completed", price: share, currency: funding.currency });
    return "RELEASED" as const;
  });
}

/**
 * The sweep: every booked deal whose deliverables are all approved (by the sponsor just now, by the
 * auto-approval window, or before a failed transfer), released one by one. One failing deal does
 * not stop the others; it is counted and tried again on the next run.
 */
export async function releaseDueDeals(
  db: Db,
  provider: Pick<PaymentProvider, "createTransfer">,
  deps: NotificationDeps,
  now = new Date(),
  onFailure: (dealId: string, error: unknown) => void = () => {},
): Promise<{ released: number; failed: number; waiting: number }> {
  const booked = await db
    .select({ id: deals.id })
    .from(deals)
    .innerJoin(dealTerms, acceptedTerms)
    .where(and(eq(deals.state, "funded"), everyDeliverableApproved))
    .orderBy(deals.updatedAt)
    .limit(500);
  const counts = { released: 0, failed: 0, waiting: 0 };
  for (const { id } of booked) {
    try {
      const outcome = await releaseDeal(db, provider, deps, id, now);
      if (outcome === "RELEASED") counts.released += 1;
      if (outcome === "NO_PAYOUT_ACCOUNT") counts.waiting += 1;
    } catch (error) {
      counts.failed += 1;
      onFailure(id, error);
    }
  }
  return counts;
}
