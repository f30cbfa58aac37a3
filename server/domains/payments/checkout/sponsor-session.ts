import crypto from "node:crypto";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#server/platform/db/client";
import { bioPages, connectedAccounts, sponsorSessions, user, type SponsorSessionKind } from "#server/platform/db/schema";
import { domainError, refusal, type DomainError } from "#server/platform/errors";
import { readPublicPage } from "#server/domains/bio/public-page";
import { readCreatorLook, type CreatorLook } from "#server/domains/bio/creator-look";
import { refuseUnlessOwnerActive } from "#server/domains/accounts/active-owner";
import { platformFeeFor } from "#server/domains/payments/ledger/fees";
import { checkoutRateLimited, type CheckoutRateLimited } from "#server/domains/payments/checkout/rate-limit";
import { checkoutReuseKey, findOpenCheckout } from "#server/domains/payments/checkout/reuse";
import { whereYouAppear, type WhereYouAppear } from "#server/domains/payments/checkout/where-you-appear";
import { amountProblem, DEFAULT_CURRENCY, NO_PLATFORM_FUNDS_MESSAGE } from "#isomorphic/payment-limits";
import { formatMoney } from "#server/domains/payments/ledger/money";
import type { PaymentProvider } from "#server/providers/payments/port";

export const MAX_MESSAGE_LENGTH = 999;

export type SponsorCheckoutRequest = {
  ending: string;
  kind: SponsorSessionKind;
  /** The sponsored post (sponsorship only). */
  postId?: string | null;
  /** Minor units, as the form's amount was parsed. */
  amount: number;
  /** Optional (SPEC §5 requires only the message): blank means no receipt. */
  sponsorEmail: string;
  message: string;
  /** The name the supporter chose to show the creator; blank for none. */
  supporterName?: string;
  /** The supporter asked to keep their support off the public page (the wall). */
  private?: boolean;
  /** The signed-in sponsor, or null for a guest. */
  sponsorUid: string | null;
  /**
   * Who is asking, for the rate limits and the reuse of an open checkout;
   * null only for the server's own callers (test hooks), never for a request.
   */
  client: CheckoutClient | null;
};

/** The client's address, and its browser's checkout token (server/domains/payments/checkout/reuse.ts) when it sent one. */
export type CheckoutClient = { ip: string; browserToken: string | null };

export type CheckoutOptions = { platformFeePercent: number; publicOrigin: string };

export type FieldErrors = Partial<Record<"sponsorEmail" | "message" | "amount" | "postId" | "supporterName", string>>;

/** SPEC §5's shorter bound, for the name a supporter shows the creator. */
export const MAX_SUPPORTER_NAME_LENGTH = 99;

/** The tip minimum's message, the same wherever the amount is checked. */
export function minimumTipMessage(minimum: number, currency: string): string {
  return `The minimum tip is ${formatMoney(minimum, currency)}`;
}

export type BuildResult =
  | { kind: "SUCCESS"; sessionId: string; url: string }
  | DomainError<"invalid-argument", { fieldErrors: FieldErrors }>
  | CheckoutRateLimited
  | DomainError<"not-found" | "aborted" | "unavailable">;

const emailSchema = z.email();

function checkFields(input: SponsorCheckoutRequest): FieldErrors {
  const errors: FieldErrors = {};
  const email = input.sponsorEmail.trim();
  if (email && (email.length > 254 || !emailSchema.safeParse(email).success)) errors.sponsorEmail = "Enter a valid email address";
  const message = input.message.trim();
  if (!message) errors.message = "Required";
  else if (message.length > MAX_MESSAGE_LENGTH) errors.message = "Must be under 1000 characters";
  if ((input.supporterName ?? "").trim().length > MAX_SUPPORTER_NAME_LENGTH) errors.supporterName = "Must be under 100 characters";
  const problem = amountProblem(input.amount, DEFAULT_CURRENCY);
  if (problem?.reason === "BELOW_MINIMUM") errors.amount = `The amount must be at least ${formatMoney(problem.minimum, DEFAULT_CURRENCY)}`;
  else if (problem?.reason === "ABOVE_MAXIMUM") errors.amount = `The amount must be at most ${formatMoney(problem.maximum, DEFAULT_CURRENCY)}`;
  else if (problem) errors.amount = "Enter an amount";
  return errors;
}

const invalid = (fieldErrors: FieldErrors) =>
  domainError("invalid-argument", Object.values(fieldErrors)[0] ?? "Check the form", { fieldErrors });

/**
 * Starts a sponsor payment from a bio page (SPEC §7.1 buildSponsorSession):
 * the amount and what it is for are decided here, never trusted from the
 * form; only a page whose owner's payout account is complete takes money.
 * A pending row is written first, so the provider's checkout carries our id
 * (idempotency key `checkout_<row id>`: a retried call makes no second one).
 * The same browser sending the same form again gets its open checkout back;
 * only a new one is counted against the checkout rate limits.
 */
export async function buildSponsorSession(db: Db, provider: PaymentProvider, input: SponsorCheckoutRequest, options: CheckoutOptions): Promise<BuildResult> {
  const fieldErrors = checkFields(input);
  if (Object.keys(fieldErrors).length > 0) return invalid(fieldErrors);

  const page = await readPublicPage(db, input.ending);
  if (!page) return domainError("not-found", "There is no such page.");
  const ownerGone = refuseUnlessOwnerActive(page);
  if (ownerGone) return ownerGone;
  const [account] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, page.uid));
  if (!account?.completed || !account.providerAccountId) {
    return domainError("aborted", `${page.name} cannot take payments yet.`);
  }

  let currency = "usd";
  let productName = `Tip for ${page.name}`;
  let postId: string | null = null;
  if (input.kind === "tip") {
    // The creator's own rules for tips (server/domains/bio/support-settings.ts): on or off, and the least one may be.
    if (!page.acceptTips) return refusal("aborted", "TIPS_OFF", `${page.name} isn't taking tips right now.`);
    if (input.amount < page.tipMinimum) return invalid({ amount: minimumTipMessage(page.tipMinimum, currency) });
  } else {
    // Only an option the page offers now (its owner's post, payments on), at its minimum or more.
    const option = page.sponsorships.find((s) => s.id === input.postId);
    if (!option) return invalid({ postId: "Choose one of this page's sponsorship options" });
    if (option.minContributionCents <= 0) return invalid({ postId: NO_PLATFORM_FUNDS_MESSAGE });
    if (input.amount < option.minContributionCents) {
      return invalid({ amount: `The minimum contribution is ${formatMoney(option.minContributionCents, option.currency)}` });
    }
    currency = option.currency;
    productName = `Sponsorship of “${option.title}” (${page.name})`;
    postId = option.id;
  }

  const sponsorEmail = input.sponsorEmail.trim() || null;
  const message = input.message.trim();
  const supporterName = (input.supporterName ?? "").replace(/\s+/g, " ").trim() || null;
  const keptPrivate = input.private === true;
  const token = input.client?.browserToken;
  const facts = { pageId: page.id, kind: input.kind, postId, amount: input.amount, currency, sponsorEmail, message, sponsorUid: input.sponsorUid, supporterName, private: keptPrivate };
  const reuseKey = token ? checkoutReuseKey(token, facts) : null;
  const open = reuseKey ? await findOpenCheckout(db, reuseKey) : null;
  if (open) return { kind: "SUCCESS", ...open };
  if (input.client) {
    const limited = await checkoutRateLimited(db, { ip: input.client.ip, pageId: page.id, asksForReceipt: sponsorEmail !== null });
    if (limited) return limited;
  }

  const sessionId = `ss_${crypto.randomBytes(12).toString("hex")}`;
  const platformFee = platformFeeFor(input.amount, options.platformFeePercent);
  await db.insert(sponsorSessions).values({
    id: sessionId,
    kind: input.kind,
    provider: provider.name,
    posterUid: page.uid,
    sponsorUid: input.sponsorUid,
    bioPageId: page.id,
    postId,
    destinationAccountId: account.providerAccountId,
    amount: input.amount,
    currency,
    platformFee,
    sponsorEmail,
    message,
    supporterName,
    private: keptPrivate,
    reuseKey,
  });

  let checkout;
  try {
    checkout = await provider.createSponsorCheckout({
      idempotencyKey: `checkout_${sessionId}`,
      sessionId,
      destinationAccountId: account.providerAccountId,
      amount: input.amount,
      currency,
      applicationFeeAmount: platformFee,
      productName,
      sponsorEmail,
      successUrl: `${options.publicOrigin}/app/payments/success?session=${sessionId}`,
      cancelUrl: `${options.publicOrigin}/app/payments/cancelled?session=${sessionId}`,
    });
  } catch {
    // No checkout page was given to anyone, so no money can arrive for this row: it goes.
    await db.delete(sponsorSessions).where(and(eq(sponsorSessions.id, sessionId), eq(sponsorSessions.status, "pending")));
    return domainError("unavailable", "The checkout could not be opened. Please try again in a moment.");
  }
  await db
    .update(sponsorSessions)
    .set({ providerCheckoutId: checkout.checkoutId, expiresAt: checkout.expiresAt, checkoutUrl: checkout.url, updatedAt: new Date() })
    .where(eq(sponsorSessions.id, sessionId));
  return { kind: "SUCCESS", sessionId, url: checkout.url };
}

export type SessionReceipt = {
  reference: string;
  amount: number;
  currency: string;
  formattedAmount: string;
  payeeName: string;
  /** The bio page the payment started from (the cancelled page links back to it), or null once that page is gone. */
  pageEnding: string | null;
  bioPageId: string | null;
  /** The creator's face, name and colours, which the result pages wear; null once the page is gone. */
  look: CreatorLook | null;
  /** The creator's own thank-you (the editor's Support settings), blank when they wrote none. */
  thankYouMessage: string;
  /**
   * Where the receipt went: the whole address only to the browser that sent
   * this checkout (its checkout cookie proves it), otherwise hidden but its
   * first letter and domain, so a success address passed on shows no one's
   * email. Null when no email was given.
   */
  receiptEmail: string | null;
  kind: SponsorSessionKind;
  status: typeof sponsorSessions.$inferSelect.status;
  /** Where the fan now shows on the creator's page, as the thank-you page tells them. */
  appears: WhereYouAppear;
};

/** "maya@example.com" → "m•••@example.com". */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "•••";
  return `${[...email.slice(0, at)][0]}•••${email.slice(at)}`;
}

/**
 * What the success page says (SPEC §2.5 payment receipt), read from our row,
 * never from the address's words. `browserToken` is the asking browser's
 * checkout cookie (server/domains/payments/checkout/reuse.ts), or null.
 */
export async function sessionReceipt(db: Db, sessionId: string, browserToken: string | null = null): Promise<SessionReceipt | null> {
  const [row] = await db
    .select({
      id: sponsorSessions.id,
      amount: sponsorSessions.amount,
      currency: sponsorSessions.currency,
      kind: sponsorSessions.kind,
      status: sponsorSessions.status,
      postId: sponsorSessions.postId,
      sponsorEmail: sponsorSessions.sponsorEmail,
      message: sponsorSessions.message,
      sponsorUid: sponsorSessions.sponsorUid,
      supporterName: sponsorSessions.supporterName,
      private: sponsorSessions.private,
      reuseKey: sponsorSessions.reuseKey,
      bioPageId: sponsorSessions.bioPageId,
      pageName: bioPages.name,
      pageEnding: bioPages.customEnding,
      thankYouMessage: bioPages.thankYouMessage,
      wallEnabled: bioPages.wallEnabled,
      hiddenFromWall: sponsorSessions.hiddenFromWall,
      ownerName: user.name,
    })
    .from(sponsorSessions)
    .leftJoin(bioPages, eq(bioPages.id, sponsorSessions.bioPageId))
    .leftJoin(user, eq(user.id, sponsorSessions.posterUid))
    .where(eq(sponsorSessions.id, sessionId));
  if (!row) return null;
  const sentThisCheckout =
    browserToken !== null &&
    row.reuseKey !== null &&
    row.bioPageId !== null &&
    checkoutReuseKey(browserToken, {
      pageId: row.bioPageId,
      kind: row.kind,
      postId: row.postId,
      amount: row.amount,
      currency: row.currency,
      sponsorEmail: row.sponsorEmail,
      message: row.message,
      sponsorUid: row.sponsorUid,
      supporterName: row.supporterName,
      private: row.private,
    }) === row.reuseKey;
  return {
    reference: row.id,
    amount: row.amount,
    currency: row.currency,
    formattedAmount: formatMoney(row.amount, row.currency),
    payeeName: row.pageName ?? row.ownerName ?? "",
    pageEnding: row.pageEnding,
    bioPageId: row.bioPageId,
    look: row.bioPageId ? await readCreatorLook(db, row.bioPageId) : null,
    thankYouMessage: row.thankYouMessage ?? "",
    receiptEmail: row.sponsorEmail === null ? null : sentThisCheckout ? row.sponsorEmail : maskedEmail(row.sponsorEmail),
    kind: row.kind,
    status: row.status,
    appears: whereYouAppear({
      status: row.status,
      private: row.private,
      hiddenFromWall: row.hiddenFromWall,
      supporterName: row.supporterName,
      wallEnabled: row.wallEnabled,
    }),
  };
}
