import { and, eq, sql } from "drizzle-orm";
import { billingDetailsOf } from "#server/domains/accounts/billing-details";
import type { Db } from "#server/platform/db/client";
import { dealFundings, dealInvoices, deals, dealTerms, invoiceCounters, profiles, user, type InvoiceParty, type InvoiceTax } from "#server/platform/db/schema";

/** "INV-0001": a creator's invoice number as printed. */
export function invoiceNumberText(number: number): string {
  return `INV-${String(number).padStart(4, "0")}`;
}

/**
 * The part of a tax-inclusive price that is tax, in minor units: price × rate / (100 + rate),
 * rounded to the nearest unit. The price is what the sponsor paid: nothing is added on top.
 */
export function includedTax(price: number, rateBasisPoints: number): number {
  return Math.round((price * rateBasisPoints) / (10_000 + rateBasisPoints));
}

/** How a party reads on an invoice: their billing details, or else the name their account shows. */
async function partyOf(tx: Db, uid: string | null): Promise<{ party: InvoiceParty; tax: { label: string; rateBasisPoints: number } | null }> {
  const details = uid ? await billingDetailsOf(tx, uid) : null;
  if (details) return { party: { name: details.legalName, address: details.address, country: details.country, taxId: details.taxId }, tax: details.tax };
  const [account] = uid
    ? await tx.select({ profileName: profiles.name, userName: user.name }).from(user).leftJoin(profiles, eq(profiles.uid, user.id)).where(eq(user.id, uid))
    : [];
  const name = account?.profileName?.trim() || account?.userName?.trim() || "A former member";
  return { party: { name, address: "", country: "", taxId: null }, tax: null };
}

/**
 * Issues the sponsor's invoice for a deal being booked, inside the transaction that books it (under
 * the deal's row lock, so a deal is never invoiced twice): the next number of the creator's own
 * sequence, and a copy of both parties' details, the accepted deliverables, the price and the
 * creator's tax line as they stand now. The counter row is bumped by one statement whose row lock
 * is held to the end of the transaction, so two deals of one creator booked at once get 1 and 2,
 * and a booking that rolls back takes its number with it: no gaps. A deal with an invoice keeps it.
 */
export async function issueDealInvoice(
  tx: Db,
  booked: { deal: Pick<typeof deals.$inferSelect, "id" | "title" | "creatorUid" | "sponsorUid">; funding: Pick<typeof dealFundings.$inferSelect, "id" | "termsVersion" | "amount" | "currency"> },
  issuedAt = new Date(),
): Promise<{ number: number; issued: boolean }> {
  const input = { ...booked.deal, dealId: booked.deal.id, fundingId: booked.funding.id, termsVersion: booked.funding.termsVersion, amount: booked.funding.amount, currency: booked.funding.currency };
  const [existing] = await tx.select({ number: dealInvoices.number }).from(dealInvoices).where(eq(dealInvoices.dealId, input.dealId));
  if (existing) return { number: existing.number, issued: false };

  const [terms] = await tx.select({ deliverables: dealTerms.deliverables }).from(dealTerms).where(and(eq(dealTerms.dealId, input.dealId), eq(dealTerms.version, input.termsVersion)));
  const seller = await partyOf(tx, input.creatorUid);
  const buyer = await partyOf(tx, input.sponsorUid);
  const tax: InvoiceTax | null = seller.tax ? { ...seller.tax, amount: includedTax(input.amount, seller.tax.rateBasisPoints) } : null;

  let number = 1;
  if (input.creatorUid) {
    const [counted] = await tx
      .insert(invoiceCounters)
      .values({ uid: input.creatorUid, lastNumber: 1 })
      .onConflictDoUpdate({ target: invoiceCounters.uid, set: { lastNumber: sql`${invoiceCounters.lastNumber} + 1` } })
      .returning({ lastNumber: invoiceCounters.lastNumber });
    number = counted!.lastNumber;
  }
  await tx.insert(dealInvoices).values({
    dealId: input.dealId,
    fundingId: input.fundingId,
    sellerUid: input.creatorUid,
    buyerUid: input.sponsorUid,
    number,
    title: input.title,
    seller: seller.party,
    buyer: buyer.party,
    lines: terms?.deliverables ?? [],
    amount: input.amount,
    currency: input.currency,
    tax,
    issuedAt,
  });
  return { number, issued: true };
}
