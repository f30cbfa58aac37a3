import type { SponsorPaymentInfo } from "#server/domains/payments/records/sponsor-sessions";

/** The Payment info page's sums (SPEC §2.5 Gross Payment, Net Payment, Fees), in minor units of the session's currency. */
export type PaymentFigures = {
  /** What the sponsor paid. */
  gross: number;
  /** What went back to the sponsor (refunds, lost disputes), as a positive amount. */
  returned: number;
  /** The creator's share after what was returned (docs/decisions/0021). */
  net: number;
  platformFee: number;
  /** The card processor's fee, paid by the platform. */
  providerFee: number;
};

/** One payment's figures from its ledger entries and totals (sponsorPaymentInfo), for its page and its callable alike. */
export function paymentFigures({ session, entries, totals }: SponsorPaymentInfo): PaymentFigures {
  const sum = (pick: (e: (typeof entries)[number]) => number) => entries.reduce((total, e) => total + pick(e), 0);
  const total = totals.find((t) => t.currency === session.currency);
  return {
    gross: sum((e) => (e.kind === "payment" ? e.gross : 0)),
    returned: -sum((e) => (e.gross < 0 ? e.gross : 0)),
    net: total?.net ?? 0,
    platformFee: total?.platformFee ?? 0,
    providerFee: total?.providerFee ?? 0,
  };
}
