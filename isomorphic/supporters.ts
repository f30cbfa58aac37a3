// Browser-safe: the words for a creator's money, one set for the header, the home, every list
// and the notifications. "Supporters" are the people who paid the creator (tips and
// sponsorships) and the one list of them; "Earnings" is the money itself (My Payments' totals,
// the home's card). SPEC's own screens keep their names and link into the list.

/** The one list: each supporter's name, amount, message, status, Refund, Info and the CSV. */
export const SUPPORTERS_PATH = "/app/account/supporters";

/** The CSV of every received payment, linked from the list (and from the home and My Payments). */
export const PAYMENTS_CSV_PATH = "/app/account/payments/export.csv";

/** The id of one payment's row on the list, so a notification can point at it. */
export const supporterRowId = (sessionId: string) => `payment-${sessionId}`;

/** Where one payment sits on the list (the newest page, where a new payment always is). */
export const supporterHref = (sessionId: string) => `${SUPPORTERS_PATH}#${supporterRowId(sessionId)}`;

/** What the creator's own screens show for a supporter who gave no name. */
export const NO_NAME_GIVEN = "No name given";

/** What the public wall, and anything that leaves the app, says for a supporter who asked to stay private. */
export const PRIVATE_SUPPORTER = "A private supporter";

/**
 * What each kind of payment is called wherever payments are listed: the creator's Supporters and
 * payment info, the payer's My Payments, and the back office. A membership's paid period (its
 * first payment or a renewal) is one payment like a tip, so it needs its own word, not "Tip".
 */
export const PAYMENT_KIND_LABELS = { tip: "Tip", sponsorship: "Sponsorship", membership: "Membership" } as const;
export type PaymentKindLabelled = keyof typeof PAYMENT_KIND_LABELS;
