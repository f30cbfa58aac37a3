import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { agreedOfferInDb, fundedDeal, payForDeal } from "#tests/support/deals";
import { ENGINES, migratedDatabase } from "#tests/support/databases";
import { notificationDeps, seedPayee, webhookDeps, type Payee } from "#tests/support/payments";
import { pdfText } from "#tests/support/pdf-text";
import { testSandbox } from "#tests/support/test-sandbox";
import { saveBillingDetails, type BillingDetailsForm } from "#server/domains/accounts/billing-details";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { dealFundings, dealInvoices, deals, invoiceCounters } from "#server/platform/db/schema";
import { moveDeal } from "#server/domains/deals/act";
import { readDeal } from "#server/domains/deals/read";
import { refundCancelledDeal } from "#server/domains/deals/refunds";
import { releaseDeal } from "#server/domains/deals/release";
import { reviewDeliverable, submitDeliverable } from "#server/domains/deals/work";
import { issueDealInvoice } from "./invoice-issue";
import { invoicePdf, statementPdf } from "./paperwork-pdf";
import { dealInvoiceNumber, readDealInvoice, readDealStatement } from "./paperwork-read";

const APP = "Sponsorgrid";
const form = (fields: Partial<BillingDetailsForm>): BillingDetailsForm => ({ legalName: "", address: "", country: "", taxId: "", taxLabel: "", taxRate: "", ...fields });

describe.each(ENGINES)("a deal's invoice and statement on %s", (engine) => {
  const database = migratedDatabase(engine);
  const sandbox = testSandbox(database);
  const db = () => database.db;
  const numberOf = async (dealId: string) => (await db().select({ number: dealInvoices.number }).from(dealInvoices).where(eq(dealInvoices.dealId, dealId)))[0]?.number ?? null;
  const sponsorOf = async (dealId: string) => (await db().select({ sponsorUid: deals.sponsorUid }).from(deals).where(eq(deals.id, dealId)))[0]!.sponsorUid!;
  let creator: Payee;
  let other: Payee;

  beforeAll(async () => {
    creator = await seedPayee(db(), sandbox.provider);
    other = await seedPayee(db(), sandbox.provider);
  });

  it("numbers each creator's invoices 1, 2, 3 … on their own, and a deal booked twice keeps its one invoice", async () => {
    const first = await fundedDeal(db(), sandbox.provider, creator, 10_000);
    const second = await fundedDeal(db(), sandbox.provider, creator, 20_000);
    const elsewhere = await fundedDeal(db(), sandbox.provider, other, 30_000);
    expect([await numberOf(first.dealId), await numberOf(second.dealId), await numberOf(elsewhere.dealId)]).toEqual([1, 2, 1]);
    expect(await dealInvoiceNumber(db(), second.dealId)).toBe("INV-0002");

    // The provider says it again: written once, and no number is spent.
    expect(await receivePaymentEvent(db(), first.completed, webhookDeps(db(), sandbox.provider))).toMatchObject({ kind: "SUCCESS" });
    const [deal] = await db().select().from(deals).where(eq(deals.id, first.dealId));
    const [funding] = await db().select().from(dealFundings).where(eq(dealFundings.id, first.fundingId));
    expect(await db().transaction((tx) => issueDealInvoice(tx, { deal: deal!, funding: funding! }))).toEqual({ number: 1, issued: false });
    expect(await db().select().from(dealInvoices).where(eq(dealInvoices.dealId, first.dealId))).toHaveLength(1);
    expect((await db().select().from(invoiceCounters).where(eq(invoiceCounters.uid, creator.uid)))[0]!.lastNumber).toBe(2);
  });

  it("gives two deals of one creator booked at once the next two numbers, without a gap", async () => {
    const payee = await seedPayee(db(), sandbox.provider);
    const [a, b] = await Promise.all([fundedDeal(db(), sandbox.provider, payee, 5_000, { settle: false }), fundedDeal(db(), sandbox.provider, payee, 6_000, { settle: false })]);
    const delivered = await Promise.all([a!, b!].map((deal) => receivePaymentEvent(db(), deal.completed, webhookDeps(db(), sandbox.provider))));
    expect(delivered.map((d) => d.kind)).toEqual(["SUCCESS", "SUCCESS"]);
    expect([await numberOf(a!.dealId), await numberOf(b!.dealId)].sort()).toEqual([1, 2]);
  });

  it("copies both parties' billing details and the creator's tax line at issue, and keeps them when the details change", async () => {
    expect(await saveBillingDetails(db(), other.uid, form({ legalName: "Zoë Studio SARL", address: "12 rue des Lilas\n75010 Paris", country: "France", taxId: "FR40303265045", taxLabel: "VAT", taxRate: "20" }))).toMatchObject({ kind: "SUCCESS" });
    const { dealId } = await agreedOfferInDb(db(), other.uid, { price: 45_000 });
    const sponsorUid = await sponsorOf(dealId);
    expect(await saveBillingDetails(db(), sponsorUid, form({ legalName: "Lumen Lights Inc.", address: "1 Market St\nSan Francisco, CA", country: "United States", taxId: "US-99-1234567" }))).toMatchObject({ kind: "SUCCESS" });
    await payForDeal(db(), sandbox.provider, sponsorUid, dealId);

    const read = await readDealInvoice(db(), { uid: sponsorUid, dealId, appName: APP });
    if (read.kind !== "SUCCESS") throw new Error(JSON.stringify(read));
    const invoice = read.document;
    expect(invoice).toMatchObject({
      number: "INV-0002",
      seller: { name: "Zoë Studio SARL", addressLines: ["12 rue des Lilas", "75010 Paris"], country: "France", taxId: "FR40303265045" },
      buyer: { name: "Lumen Lights Inc.", country: "United States", taxId: "US-99-1234567" },
      total: "$450",
      // 45,000 × 20 / 120 = 7,500: part of the price, nothing added.
      taxLine: "Includes VAT 20%: $75",
      paymentNote: expect.stringContaining("Paid by card via Sponsorgrid"),
      filename: "invoice-INV-0002.pdf",
    });
    expect(invoice.lines[0]).toEqual({ description: `Sponsorship: Deal ${dealId}`, detail: expect.any(String), amount: "$450" });
    expect(invoice.lines[1]).toEqual({ description: "YouTube: A review", detail: "Due March 1, 2099", amount: null });
    expect(invoice.taxNote).toContain("responsible for this tax");

    await saveBillingDetails(db(), other.uid, form({ legalName: "Renamed Later" }));
    const again = await readDealInvoice(db(), { uid: other.uid, dealId, appName: APP });
    expect(again).toMatchObject({ kind: "SUCCESS", document: { seller: { name: "Zoë Studio SARL" }, taxLine: "Includes VAT 20%: $75" } });

    // Without billing details a party is their account's name, and there is no tax line.
    const plain = await readDealInvoice(db(), { uid: creator.uid, dealId: (await fundedDeal(db(), sandbox.provider, creator, 1_000)).dealId, appName: APP });
    expect(plain).toMatchObject({ kind: "SUCCESS", document: { seller: { name: `Creator ${creator.uid}`, addressLines: [], taxId: null }, taxLine: null, taxNote: null } });
  });

  it("shows the invoice to the deal's two sides only, the statement to its creator only, and nothing before it is booked", async () => {
    const { dealId } = await fundedDeal(db(), sandbox.provider, creator, 7_500);
    const sponsorUid = await sponsorOf(dealId);
    expect(await readDealInvoice(db(), { uid: sponsorUid, dealId, appName: APP })).toMatchObject({ kind: "SUCCESS" });
    expect(await readDealInvoice(db(), { uid: creator.uid, dealId, appName: APP })).toMatchObject({ kind: "SUCCESS" });
    expect(await readDealInvoice(db(), { uid: other.uid, dealId, appName: APP })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readDealStatement(db(), { uid: creator.uid, dealId })).toMatchObject({ kind: "SUCCESS" });
    expect(await readDealStatement(db(), { uid: sponsorUid, dealId })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readDealStatement(db(), { uid: other.uid, dealId })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readDealInvoice(db(), { uid: creator.uid, dealId: "deal_nothing", appName: APP })).toMatchObject({ kind: "ERROR", code: "not-found" });

    const agreed = await agreedOfferInDb(db(), creator.uid, { price: 5_000 });
    expect(await readDealInvoice(db(), { uid: agreed.sponsorUid, dealId: agreed.dealId, appName: APP })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await readDealStatement(db(), { uid: creator.uid, dealId: agreed.dealId })).toMatchObject({ kind: "ERROR", code: "not-found" });
    expect(await dealInvoiceNumber(db(), agreed.dealId)).toBeNull();
    expect((await readDeal(db(), creator.uid, agreed.dealId))!.view.state).toBe("agreed");
  });

  it("states the creator's money from the ledger: the payment, the release of their share, or the refund", async () => {
    const released = await fundedDeal(db(), sandbox.provider, creator, 40_000);
    const sponsorUid = await sponsorOf(released.dealId);
    const deps = notificationDeps(db());
    expect(await submitDeliverable(db(), deps, { uid: creator.uid, dealId: released.dealId, deliverable: 0, liveUrl: "https://youtu.be/review", note: "" })).toMatchObject({ kind: "SUCCESS" });
    expect(await reviewDeliverable(db(), deps, { uid: sponsorUid, dealId: released.dealId, deliverable: 0, review: { verdict: "approve" } })).toMatchObject({ kind: "SUCCESS" });
    await releaseDeal(db(), sandbox.provider, deps, released.dealId);
    const statement = await readDealStatement(db(), { uid: creator.uid, dealId: released.dealId });
    if (statement.kind !== "SUCCESS") throw new Error(JSON.stringify(statement));
    // fundedDeal agrees 10% to the platform.
    expect(statement.document.summary.map((row) => row.amount)).toEqual(["$400", "$40", "$360", "$360", "$0", "$0"]);
    expect(statement.document.entries.map((entry) => [entry.what, entry.amount])).toEqual([
      [`Paid by Sponsor ${sponsorUid}, held by the platform`, "$400"],
      ["Released to you", "$360"],
    ]);

    const cancelled = await fundedDeal(db(), sandbox.provider, creator, 30_000);
    const cancelSponsor = await sponsorOf(cancelled.dealId);
    const move = (uid: string, action: "request_cancel" | "agree_cancel") =>
      moveDeal(db(), deps, { uid, dealId: cancelled.dealId, move: action === "request_cancel" ? { action, reason: "" } : { action }, network: "198.51.100.4" });
    expect(await move(creator.uid, "request_cancel")).toMatchObject({ kind: "SUCCESS" });
    expect(await move(cancelSponsor, "agree_cancel")).toMatchObject({ kind: "SUCCESS" });
    expect(await refundCancelledDeal(db(), sandbox.provider, cancelled.dealId)).toBe("REFUNDED");
    const refunded = await readDealStatement(db(), { uid: creator.uid, dealId: cancelled.dealId });
    if (refunded.kind !== "SUCCESS") throw new Error(JSON.stringify(refunded));
    expect(refunded.document.summary.map((row) => row.amount)).toEqual(["$300", "$0", "$0", "$0", "$300", "$0"]);
    expect(refunded.document.entries.map((entry) => entry.what)).toEqual([`Paid by Sponsor ${cancelSponsor}, held by the platform`, `Refunded to Sponsor ${cancelSponsor}`]);
  });

  it("writes the invoice and the statement as PDFs that carry the number, the names and the amounts", async () => {
    await saveBillingDetails(db(), other.uid, form({ legalName: "Łukasz Żółć · Студия", taxLabel: "VAT", taxRate: "20" }));
    const { dealId } = await fundedDeal(db(), sandbox.provider, other, 12_345);
    const sponsorUid = await sponsorOf(dealId);
    const read = await readDealInvoice(db(), { uid: sponsorUid, dealId, appName: APP });
    if (read.kind !== "SUCCESS") throw new Error(JSON.stringify(read));
    const pdf = await invoicePdf(read.document, { compress: false });
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    // Lines as the page wraps them, read as one run of words: a long name may take two lines.
    const text = pdfText(pdf).replace(/\s+/g, " ");
    expect(text).toContain(`Invoice ${read.document.number}`);
    // The seller's legal name was saved with letters outside Latin-1: the embedded font prints them.
    expect(text).toContain("Łukasz Żółć · Студия");
    expect(text).toContain(`Sponsor ${sponsorUid}`);
    expect(text).toContain("$123.45");
    expect(text).toContain("Includes VAT");

    const statement = await readDealStatement(db(), { uid: other.uid, dealId });
    if (statement.kind !== "SUCCESS") throw new Error(JSON.stringify(statement));
    const statementText = pdfText(await statementPdf(statement.document, { compress: false })).replace(/\s+/g, " ");
    expect(statementText).toContain(`Statement for ${read.document.number}`);
    expect(statementText).toContain("Released to you");
    // Compressed, as served, it is still a PDF.
    expect((await invoicePdf(read.document)).subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });
});
