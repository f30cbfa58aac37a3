import { formatIsoDate, formatMoney } from "#isomorphic/format";
import type { DealDeliverable, InvoiceParty, InvoiceTax } from "#server/platform/db/schema";
import { ratePercentText } from "#server/domains/accounts/billing-details";
import { invoiceNumberText } from "./invoice-issue";

/**
 * A deal's paperwork worded once, for the printable page and the PDF alike: plain data, every
 * amount and date already in words (US English, dates in UTC, as the rest of the deal room's
 * mail), so the two never say different things.
 */

export type PartyBlock = { role: string; name: string; addressLines: string[]; country: string; taxId: string | null };

export type InvoiceLine = { description: string; detail: string | null; amount: string | null };

export type InvoiceDocument = {
  kind: "invoice";
  number: string;
  issued: string;
  seller: PartyBlock;
  buyer: PartyBlock;
  lines: InvoiceLine[];
  total: string;
  /** "Includes VAT 20%: $75", when the creator's prices include a tax. */
  taxLine: string | null;
  taxNote: string | null;
  paymentNote: string;
  filename: string;
};

export type StatementRow = { label: string; amount: string };
export type StatementEntry = { date: string; what: string; amount: string };

export type StatementDocument = {
  kind: "statement";
  title: string;
  dealTitle: string;
  invoiceNumber: string;
  creatorName: string;
  sponsorName: string;
  summary: StatementRow[];
  entries: StatementEntry[];
  note: string;
  filename: string;
};

const dayOf = (at: Date) => formatIsoDate(at.toISOString().slice(0, 10));

function partyBlock(role: string, party: InvoiceParty): PartyBlock {
  return {
    role,
    name: party.name,
    addressLines: party.address.split("\n").map((line) => line.trim()).filter(Boolean),
    country: party.country,
    taxId: party.taxId,
  };
}

export type IssuedInvoice = {
  number: number;
  title: string;
  seller: InvoiceParty;
  buyer: InvoiceParty;
  lines: DealDeliverable[];
  amount: number;
  currency: string;
  tax: InvoiceTax | null;
  issuedAt: Date;
};

/**
 * The invoice in words. The price is one line, the deal it pays for, with each deliverable of the
 * accepted terms under it; a tax the creator set is shown as the part of that price it is, never
 * added to it: the sponsor paid what the screens showed.
 */
export function invoiceDocument(invoice: IssuedInvoice, appName: string): InvoiceDocument {
  const price = formatMoney(invoice.amount, invoice.currency);
  const number = invoiceNumberText(invoice.number);
  return {
    kind: "invoice",
    number,
    issued: dayOf(invoice.issuedAt),
    seller: partyBlock("From (seller)", invoice.seller),
    buyer: partyBlock("To (buyer)", invoice.buyer),
    lines: [
      { description: `Sponsorship: ${invoice.title}`, detail: "As agreed in the deal's accepted terms", amount: price },
      ...invoice.lines.map((line) => ({ description: `${line.channel}: ${line.format}`, detail: `Due ${formatIsoDate(line.dueDate)}`, amount: null })),
    ],
    total: price,
    taxLine: invoice.tax ? `Includes ${invoice.tax.label} ${ratePercentText(invoice.tax.rateBasisPoints)}%: ${formatMoney(invoice.tax.amount, invoice.currency)}` : null,
    taxNote: invoice.tax ? `The seller, ${invoice.seller.name}, is responsible for this tax. ${appName} does not charge or collect it.` : null,
    paymentNote: `Paid by card via ${appName} on ${dayOf(invoice.issuedAt)}, held until the work is approved.`,
    filename: `invoice-${number}.pdf`,
  };
}

/** One movement of a deal's money on the ledger, as the statement lists it. */
export type DealMovement = { kind: "deal_payment" | "deal_release" | "deal_refund"; amount: number; at: Date };

export type StatementFacts = {
  invoiceNumber: number;
  title: string;
  creatorName: string;
  sponsorName: string;
  price: number;
  platformFee: number;
  currency: string;
  movements: DealMovement[];
  /** Whether the deal still holds money for the work (booked, neither completed nor ended). */
  stillBooked: boolean;
  /** Cancelled before anything reached the creator: the platform kept no fee. */
  cancelledUnpaid: boolean;
};

/**
 * The creator's statement: the price the sponsor paid, the platform's fee, what reached them and
 * what went back to the sponsor, each with its date, and what the platform still holds.
 */
export function statementDocument(facts: StatementFacts): StatementDocument {
  const money = (amount: number) => formatMoney(amount, facts.currency);
  const sum = (kind: DealMovement["kind"]) => facts.movements.filter((m) => m.kind === kind).reduce((total, m) => total + m.amount, 0);
  const paid = sum("deal_payment");
  const released = sum("deal_release");
  const refunded = sum("deal_refund");
  const left = Math.max(0, paid - released - refunded);
  const what: Record<DealMovement["kind"], string> = {
    deal_payment: `Paid by ${facts.sponsorName}, held by the platform`,
    deal_release: "Released to you",
    deal_refund: `Refunded to ${facts.sponsorName}`,
  };
  const number = invoiceNumberText(facts.invoiceNumber);
  return {
    kind: "statement",
    title: `Statement for ${number}`,
    dealTitle: facts.title,
    invoiceNumber: number,
    creatorName: facts.creatorName,
    sponsorName: facts.sponsorName,
    summary: [
      { label: `Price paid by ${facts.sponsorName}`, amount: money(facts.price) },
      facts.cancelledUnpaid
        ? { label: "The platform's fee (none: the deal was cancelled)", amount: money(0) }
        : { label: "The platform's fee", amount: money(facts.platformFee) },
      { label: "Your share", amount: money(facts.cancelledUnpaid ? 0 : facts.price - facts.platformFee) },
      { label: "Released to you", amount: money(released) },
      { label: `Refunded to ${facts.sponsorName}`, amount: money(refunded) },
      { label: facts.stillBooked ? "Still held for the work" : "Still held", amount: money(facts.stillBooked ? left : 0) },
    ],
    entries: facts.movements.map((m) => ({ date: dayOf(m.at), what: what[m.kind], amount: money(m.amount) })),
    note: facts.stillBooked
      ? "The platform holds the sponsor's payment until the work is approved; then your share is released to your payout account."
      : "Nothing more is held for this deal.",
    filename: `statement-${number}.pdf`,
  };
}
