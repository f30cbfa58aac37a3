import { sql } from "drizzle-orm";
import { check, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { user } from "./auth";
import { dealFundings, deals, type DealDeliverable } from "./deals";

/**
 * What a person wants on the invoices of their deals, one row per account: the legal name, the
 * postal address and country, a tax id, and, for a creator who charges a tax, the tax's label and
 * rate (basis points: 2000 is 20%). An account without a row is named on invoices by its account
 * name. Editing this row never changes an invoice already issued: invoices keep their own copy.
 */
export const billingDetails = pgTable(
  "billing_details",
  {
    uid: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    legalName: text().notNull(),
    address: text().notNull().default(""),
    country: text().notNull().default(""),
    taxId: text(),
    taxLabel: text(),
    taxRateBasisPoints: integer(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("billing_details_lengths_check", sql`char_length(${t.legalName}) between 1 and 200 and char_length(${t.address}) <= 500 and char_length(${t.country}) <= 60 and char_length(coalesce(${t.taxId}, '')) <= 40`),
    check("billing_details_tax_check", sql`(${t.taxLabel} is null) = (${t.taxRateBasisPoints} is null) and char_length(coalesce(${t.taxLabel}, 'x')) between 1 and 30 and coalesce(${t.taxRateBasisPoints}, 1) between 1 and 5000`),
  ],
);

/** The last invoice number each creator issued: invoices are numbered 1, 2, 3 … per creator, with no gaps. */
export const invoiceCounters = pgTable(
  "invoice_counters",
  {
    uid: text()
      .primaryKey()
      .references(() => user.id, { onDelete: "cascade" }),
    lastNumber: integer().notNull(),
  },
  (t) => [check("invoice_counters_last_number_check", sql`${t.lastNumber} >= 1`)],
);

/** One side of an invoice as it was when the invoice was issued. */
export type InvoiceParty = { name: string; address: string; country: string; taxId: string | null };

/** The tax a creator's price includes, as it was when the invoice was issued: `amount` in minor units. */
export type InvoiceTax = { label: string; rateBasisPoints: number; amount: number };

/**
 * The sponsor's invoice for a booked deal, issued in the transaction that booked it, one per deal.
 * Everything it shows is copied here at issue (both parties, the deliverables, the price, the tax
 * line), so it never changes afterwards, whatever either side edits later. `number` counts the
 * creator's invoices (`invoice_counters`); the people are kept as `set null`, as deals keep them.
 */
export const dealInvoices = pgTable(
  "deal_invoices",
  {
    dealId: text()
      .primaryKey()
      .references(() => deals.id, { onDelete: "cascade" }),
    fundingId: text()
      .notNull()
      .references(() => dealFundings.id),
    sellerUid: text().references(() => user.id, { onDelete: "set null" }),
    buyerUid: text().references(() => user.id, { onDelete: "set null" }),
    number: integer().notNull(),
    title: text().notNull(),
    seller: jsonb().$type<InvoiceParty>().notNull(),
    buyer: jsonb().$type<InvoiceParty>().notNull(),
    lines: jsonb().$type<DealDeliverable[]>().notNull(),
    // Integer minor units of `currency`: what the sponsor paid, tax included.
    amount: integer().notNull(),
    currency: text().notNull(),
    tax: jsonb().$type<InvoiceTax>(),
    issuedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check("deal_invoices_number_check", sql`${t.number} >= 1`),
    check("deal_invoices_amount_check", sql`${t.amount} > 0`),
    check("deal_invoices_currency_check", sql`${t.currency} ~ '^[a-z]{3}$'`),
    // A creator's numbers are theirs alone and never repeat.
    uniqueIndex("deal_invoices_seller_number_idx").on(t.sellerUid, t.number),
  ],
);
