import type { LedgerActivity, SponsorSessionCard } from "#server/payments/sponsor-sessions";
import { formatMoney } from "#server/payments/money";
import type { PaymentCardView } from "#app/components/sponsor-payments/SponsorPaymentCard";

/** What a card shows, with its amount already in words (the browser gets no ledger maths). */
export function cardView(session: SponsorSessionCard): PaymentCardView {
  return {
    id: session.id,
    created: session.created.toISOString(),
    status: session.status,
    refundPending: session.refundPending,
    sponsorEmail: session.sponsorEmail,
    message: session.message,
    amount: formatMoney(session.amount, session.currency),
    kind: session.kind,
  };
}

export type ActivityView = { sessionId: string; kind: LedgerActivity["kind"]; created: string; gross: string; net: string };

export function activityView(entry: LedgerActivity): ActivityView {
  return {
    sessionId: entry.sessionId,
    kind: entry.kind,
    created: entry.created.toISOString(),
    gross: formatMoney(entry.gross, entry.currency),
    net: formatMoney(entry.net, entry.currency),
  };
}
