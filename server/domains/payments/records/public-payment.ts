import { z } from "zod";
import type { Db } from "#server/platform/db/client";
import { DISPUTE_STATUSES, LEDGER_ENTRY_KINDS, SPONSOR_SESSION_KINDS, SPONSOR_SESSION_STATUSES } from "#server/platform/db/schema";
import { paymentFigures } from "#server/domains/payments/records/payment-figures";
import { sponsorPaymentInfo, type SponsorPaymentInfo, type SponsorSessionCard } from "#server/domains/payments/records/sponsor-sessions";

/**
 * A payment received as programs outside the app see it: the public API's answers and the
 * payment.* webhook events' `data` alike, so a consumer parses one shape from both. Plain JSON:
 * amounts in integer minor units of `currency`, times as ISO 8601 text.
 */
const minorUnits = (description: string) => z.int().meta({ description });

const REFUND_STATUSES = ["none", "pending", "succeeded"] as const;

export const publicPaymentSummarySchema = z
  .object({
    id: z.string().meta({ description: "The payment's id.", example: "ss_4f1c2a9e0b" }),
    kind: z.enum(SPONSOR_SESSION_KINDS).meta({ description: "A tip from a bio page, a sponsorship of one of your opportunities, or one paid period of a membership (its first payment or a renewal)." }),
    status: z.enum(SPONSOR_SESSION_STATUSES).meta({
      description: "completed: paid. refunded: paid and returned. disputed: the sponsor's bank took it back and the dispute is not won. pending: a checkout not paid (yet); failed and expired: one that never will be.",
    }),
    amount: minorUnits("What the sponsor was asked to pay, in minor units of `currency` (2500 is $25.00)."),
    currency: z.string().regex(/^[a-z]{3}$/).meta({ description: "ISO 4217, lower case.", example: "usd" }),
    sponsorEmail: z.string().nullable().meta({ description: "The address the sponsor gave, if any." }),
    message: z.string().meta({ description: "The sponsor's message to you." }),
    createdAt: z.iso.datetime(),
    refundStatus: z.enum(REFUND_STATUSES).meta({ description: "pending: a refund was asked for and the provider has not confirmed it; the status stays completed until it does." }),
    dispute: z
      .object({
        status: z.enum(DISPUTE_STATUSES),
        reason: z.string().meta({ description: "The bank's reason, as the provider reports it (fraudulent, product_not_received …)." }),
        evidenceDueBy: z.iso.datetime().nullable().meta({ description: "While it needs a response: the deadline for evidence." }),
      })
      .nullable()
      .meta({ description: "The chargeback, if the sponsor's bank disputed the payment." }),
  })
  .meta({ id: "PaymentSummary", description: "A payment to you, as lists show it." });

export const publicPaymentSchema = publicPaymentSummarySchema
  .extend({
    paymentReference: z.string().nullable().meta({ description: "The payment provider's id of the payment (a payment intent), once paid." }),
    figures: z
      .object({
        gross: minorUnits("What the sponsor paid."),
        returned: minorUnits("What went back to the sponsor (refunds, disputes), as a positive amount."),
        fee: minorUnits("The platform's fee, less its share of what went back."),
        net: minorUnits("Your share after fees and what went back: what your payout account keeps."),
        processorFee: minorUnits("The card processor's fees (dispute fees included). Paid by the platform, not deducted from net."),
      })
      .meta({ description: "The sums of the payment's movements, as its Payment info page shows them. All 0 while nothing was paid." }),
    movements: z
      .array(
        z.object({
          kind: z.enum(LEDGER_ENTRY_KINDS),
          createdAt: z.iso.datetime(),
          gross: minorUnits("Negative when money went back."),
          fee: minorUnits("The platform's fee of this movement."),
          net: minorUnits("Your share of this movement."),
          processorFee: minorUnits("The processor's fee of this movement."),
        }),
      )
      .meta({ description: "Every movement of money, oldest first: the payment, a refund, a dispute and its reversal." }),
  })
  .meta({ id: "Payment", description: "A payment to you, with its figures." });

export type PublicPaymentSummary = z.infer<typeof publicPaymentSummarySchema>;
export type PublicPayment = z.infer<typeof publicPaymentSchema>;

function refundStatusOf(card: SponsorSessionCard): PublicPaymentSummary["refundStatus"] {
  if (card.status === "refunded") return "succeeded";
  return card.refundPending ? "pending" : "none";
}

export function toPublicPaymentSummary(card: SponsorSessionCard): PublicPaymentSummary {
  return {
    id: card.id,
    kind: card.kind,
    status: card.status,
    amount: card.amount,
    currency: card.currency,
    sponsorEmail: card.sponsorEmail,
    message: card.message,
    createdAt: card.created.toISOString(),
    refundStatus: refundStatusOf(card),
    dispute: card.dispute ? { status: card.dispute.status, reason: card.dispute.reason, evidenceDueBy: card.dispute.evidenceDueBy?.toISOString() ?? null } : null,
  };
}

/** One payment with the figures of its Payment info page (paymentFigures), from sponsorPaymentInfo's answer. */
export function toPublicPayment(info: SponsorPaymentInfo): PublicPayment {
  const figures = paymentFigures(info);
  return {
    ...toPublicPaymentSummary(info.session),
    paymentReference: info.session.paymentIntentId,
    // `|| 0`: a sum of no negative amounts is -0, which JSON has no word for.
    figures: { gross: figures.gross, returned: figures.returned || 0, fee: figures.platformFee, net: figures.net, processorFee: figures.providerFee },
    movements: info.entries.map((entry) => ({
      kind: entry.kind,
      createdAt: entry.created.toISOString(),
      gross: entry.gross,
      fee: entry.platformFee,
      net: entry.net,
      processorFee: entry.providerFee,
    })),
  };
}

/** The payment `sessionId` of `uid`'s (the payee) in its public shape; null when there is none of theirs. */
export async function readPublicPayment(db: Db, uid: string, sessionId: string): Promise<PublicPayment | null> {
  const found = await sponsorPaymentInfo(db, uid, sessionId);
  return found.kind === "SUCCESS" ? toPublicPayment(found.info) : null;
}
