import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { dealFundings, dealInvoices, deals, ledgerEntries } from "#server/platform/db/schema";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { invoiceDocument, statementDocument, type DealMovement, type InvoiceDocument, type StatementDocument } from "./paperwork-documents";
import { invoiceNumberText } from "./invoice-issue";

/**
 * Who reads a deal's paperwork: the invoice is the deal's two sides', the statement the creator's
 * alone. Anyone else, and a deal not booked yet (it has no invoice), is answered as if there were
 * no such deal.
 */

export type PaperworkRefusal = Refusal<"not-found", "NOT_FOUND">;

const NOT_FOUND = refusal("not-found", "NOT_FOUND", "There is no such invoice or statement.");

async function invoiceRow(db: Db, dealId: string) {
  const [row] = await db
    .select({ invoice: dealInvoices, creatorUid: deals.creatorUid, sponsorUid: deals.sponsorUid, state: deals.state })
    .from(dealInvoices)
    .innerJoin(deals, eq(deals.id, dealInvoices.dealId))
    .where(eq(dealInvoices.dealId, dealId));
  return row ?? null;
}

/** The number on a deal's invoice ("INV-0001"), for the deal page's Paperwork section; null before it is booked. */
export async function dealInvoiceNumber(db: Db, dealId: string): Promise<string | null> {
  const [row] = await db.select({ number: dealInvoices.number }).from(dealInvoices).where(eq(dealInvoices.dealId, dealId));
  return row ? invoiceNumberText(row.number) : null;
}

/** The sponsor's invoice for a booked deal, as issued, for either side of the deal. */
export async function readDealInvoice(db: Db, input: { uid: string; dealId: string; appName: string }): Promise<Success<{ document: InvoiceDocument }> | PaperworkRefusal> {
  const row = await invoiceRow(db, input.dealId);
  if (!row || (row.creatorUid !== input.uid && row.sponsorUid !== input.uid)) return NOT_FOUND;
  return success({ document: invoiceDocument(row.invoice, input.appName) });
}

/** The creator's statement of a booked deal's money, read from the ledger rows of the funding that booked it. */
export async function readDealStatement(db: Db, input: { uid: string; dealId: string }): Promise<Success<{ document: StatementDocument }> | PaperworkRefusal> {
  const row = await invoiceRow(db, input.dealId);
  if (!row || row.creatorUid !== input.uid) return NOT_FOUND;
  const { invoice } = row;
  const [funding] = await db.select({ amount: dealFundings.amount, platformFee: dealFundings.platformFee }).from(dealFundings).where(eq(dealFundings.id, invoice.fundingId));
  const entries = await db
    .select({ kind: ledgerEntries.kind, gross: ledgerEntries.gross, net: ledgerEntries.net, created: ledgerEntries.created })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.fundingId, invoice.fundingId), inArray(ledgerEntries.kind, ["deal_payment", "deal_release", "deal_refund"])))
    .orderBy(asc(ledgerEntries.created), asc(ledgerEntries.id));
  // The rows' signs are the platform's (deal-ledger.ts): a release is the creator's net, a refund a negative gross.
  const movements: DealMovement[] = entries.map((entry) => ({
    kind: entry.kind as DealMovement["kind"],
    amount: entry.kind === "deal_release" ? entry.net : Math.abs(entry.gross),
    at: entry.created,
  }));
  const released = movements.some((m) => m.kind === "deal_release");
  return success({
    document: statementDocument({
      invoiceNumber: invoice.number,
      title: invoice.title,
      creatorName: invoice.seller.name,
      sponsorName: invoice.buyer.name,
      price: funding?.amount ?? invoice.amount,
      platformFee: funding?.platformFee ?? 0,
      currency: invoice.currency,
      movements,
      stillBooked: row.state === "funded",
      cancelledUnpaid: row.state === "cancelled" && !released,
    }),
  });
}
