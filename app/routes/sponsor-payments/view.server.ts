import type { LedgerActivity, RecentMovement, SponsorSessionCard } from "#server/domains/payments/records/sponsor-sessions";
import { formatMoney } from "#server/domains/payments/ledger/money";
import { disputeGuidance, disputeLine } from "#server/domains/payments/notices/dispute-notices";
import type { PaymentCardView } from "#app/components/sponsor-payments/SponsorPaymentCard";

/** What a card shows, with its amount already in words (the browser gets no ledger maths). */
export function cardView(session: SponsorSessionCard): PaymentCardView {
  return {
    id: session.id,
    created: session.created.toISOString(),
    status: session.status,
    refundPending: session.refundPending,
    sponsorEmail: session.sponsorEmail,
    supporterName: session.supporterName,
    private: session.private,
    message: session.message,
    amount: formatMoney(session.amount, session.currency),
    kind: session.kind,
    dispute: session.dispute ? disputeLine(session.dispute) : null,
  };
}

export type ActivityView = { sessionId: string; kind: LedgerActivity["kind"]; created: string; gross: string; net: string };

/** A line of Recent Activity: a payment's movement (its Info page), or a deal released to the creator (the deal's page). */
export type RecentView = ActivityView & { href: string; label: string | null };

export function recentView(entry: RecentMovement, paymentsPath: string): RecentView {
  if (entry.deal) {
    return {
      sessionId: "",
      kind: entry.kind,
      created: entry.created.toISOString(),
      gross: formatMoney(entry.gross, entry.currency),
      net: formatMoney(entry.net, entry.currency),
      href: `/app/deals/${entry.deal.id}`,
      label: `Deal: ${entry.deal.title} from ${entry.deal.sponsorName}`,
    };
  }
  return { ...activityView(entry), href: `${paymentsPath}/${entry.sessionId}`, label: null };
}

export function activityView(entry: LedgerActivity): ActivityView {
  return {
    sessionId: entry.sessionId,
    kind: entry.kind,
    created: entry.created.toISOString(),
    gross: formatMoney(entry.gross, entry.currency),
    net: formatMoney(entry.net, entry.currency),
  };
}

export type DisputeView = { open: boolean; text: string; guidance: string | null };

/** The payment's chargeback on its Info page: the line of its card, and while open what to do before the deadline. */
export function disputeView(dispute: NonNullable<SponsorSessionCard["dispute"]>, supportEmail: string): DisputeView {
  const line = disputeLine(dispute);
  return { ...line, guidance: line.open ? disputeGuidance(dispute, supportEmail) : null };
}
