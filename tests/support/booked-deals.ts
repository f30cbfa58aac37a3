import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import type { Db } from "#server/platform/db/client";
import { dealFundings } from "#server/platform/db/schema";
import { moveDeal } from "#server/domains/deals/act";
import { startDealFunding } from "#server/domains/deals/funding";
import { openDeal } from "#server/domains/deals/open-deal";
import { parseTerms, type TermsFormFields } from "#server/domains/deals/terms-form";
import { receivePaymentEvent } from "#server/features/payment-webhooks/intake";
import { paymentEventSchema } from "#server/providers/payments/events";
import { payCheckout } from "#server/providers/payments/sandbox/pay";
import type { SandboxProvider } from "#server/providers/payments/sandbox/provider";
import { sandboxEvents } from "#server/providers/payments/sandbox/schema";
import { notificationDeps, PAYING_CARD, webhookDeps } from "./payments";

/**
 * Deals at each step of their money, made the way people make them: a creator applies to a
 * sponsor's brief, the sponsor accepts, pays at the sandbox, and the sandbox's own event books it.
 * For the deal room's domain tests (server/domains/deals/).
 */

export const ORIGIN = "http://app.test";

/** Terms as the form sends them, with one deliverable unless said. */
export function termsForm(overrides: Partial<TermsFormFields> = {}): TermsFormFields {
  return {
    price: "750",
    usageRights: "none",
    usageDays: "0",
    exclusivityDays: "0",
    autoApproveDays: "3",
    message: "",
    disclosureRequired: true,
    sponsorApproves: true,
    deliverableChannel: ["YouTube"],
    deliverableFormat: ["A review"],
    deliverableDue: ["2099-03-01"],
    ...overrides,
  };
}

/** A creator's application to `brief` with `overrides`, accepted by the brief's sponsor as it stands. */
export async function agreedDeal(db: Db, people: { creator: string; sponsor: string; brief: string }, overrides: Partial<TermsFormFields> = {}): Promise<string> {
  const parsed = parseTerms(termsForm(overrides));
  if (parsed.kind !== "SUCCESS") throw new Error(JSON.stringify(parsed.fieldErrors));
  const opened = await openDeal(db, notificationDeps(db), { uid: people.creator, opportunityId: people.brief, pitch: "Let me review it.", links: "", bioPageId: "", terms: parsed.terms, network: "203.0.113.9" });
  if (opened.kind !== "SUCCESS") throw new Error(JSON.stringify(opened));
  const accepted = await moveDeal(db, notificationDeps(db), { uid: people.sponsor, dealId: opened.dealId, move: { action: "accept", version: 1 }, network: "198.51.100.4" });
  expect(accepted.kind).toBe("SUCCESS");
  return opened.dealId;
}

/** Delivers the sandbox's stored event of `type` for `checkoutId` to the webhook intake. */
export async function deliverStoredEvent(db: Db, provider: SandboxProvider, checkoutId: string, type: string) {
  const [stored] = await db.select().from(sandboxEvents).where(and(eq(sandboxEvents.type, type), sql`${sandboxEvents.payload}->>'checkoutId' = ${checkoutId}`));
  return receivePaymentEvent(db, paymentEventSchema.parse(stored!.payload), webhookDeps(db, provider));
}

/** The sponsor pays for an agreed deal at the sandbox, and its checkout.completed books it. */
export async function payForDeal(db: Db, provider: SandboxProvider, sponsor: string, dealId: string, feePercent = 10): Promise<{ fundingId: string; paymentIntentId: string }> {
  const started = await startDealFunding(db, provider, { uid: sponsor, dealId, publicOrigin: ORIGIN, feePercent });
  if (started.kind !== "SUCCESS") throw new Error(JSON.stringify(started));
  const [funding] = await db.select().from(dealFundings).where(eq(dealFundings.id, started.fundingId));
  const paid = await payCheckout(db, funding!.checkoutId!, { email: "brand@sponsor.example", ...PAYING_CARD }, provider.now(), provider.whyPayeeCannotBePaid);
  if (paid.kind !== "SUCCESS" || paid.outcome !== "PAID") throw new Error(JSON.stringify(paid));
  expect(await deliverStoredEvent(db, provider, funding!.checkoutId!, "checkout.completed")).toMatchObject({ kind: "SUCCESS" });
  return { fundingId: started.fundingId, paymentIntentId: paid.paymentIntentId };
}
