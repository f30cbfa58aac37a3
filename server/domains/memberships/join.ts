import { and, eq } from "drizzle-orm";
import { nanoid } from "nanoid";
import { z } from "zod";
import { parseAmountInput } from "#isomorphic/amount-input";
import { themeOf } from "#isomorphic/bio-theme";
import { formatMoney } from "#isomorphic/format";
import { MEMBERSHIP_LIMITS, MEMBERSHIP_PER } from "#isomorphic/membership-limits";
import { welcomePath } from "#isomorphic/membership-join";
import { ownerIsActive, OWNER_UNAVAILABLE_PAYMENT_MESSAGE } from "#server/domains/accounts/active-owner";
import { readCreatorLook, type CreatorLook } from "#server/domains/bio/creator-look";
import { readPublicPage, type PublicBioPage } from "#server/domains/bio/public-page";
import { checkoutRateLimited, type CheckoutRateLimited } from "#server/domains/payments/checkout/rate-limit";
import { REUSE_MIN_REMAINING_MS } from "#server/domains/payments/checkout/reuse";
import { maskedEmail, MAX_SUPPORTER_NAME_LENGTH } from "#server/domains/payments/checkout/sponsor-session";
import type { Db } from "#server/platform/db/client";
import { connectedAccounts, memberships, type MembershipInterval, type MembershipStatus } from "#server/platform/db/schema";
import { domainError, fieldRefusal, refusal, success, type DomainError, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import type { PaymentProvider } from "#server/providers/payments/port";
import { publicTierOf, type PublicTier } from "./public-tiers";
import { isTierId, readTier, RUNNING_MEMBERSHIP_STATUSES, spotsLeft, type MembershipTier } from "./tiers";

/**
 * Joining a membership tier (ADR 0084): the join page's offer, the checkout it opens and the
 * welcome page after it. Works without an account: the member's address is where their member
 * link, receipts and posts go. A pending `memberships` row is written first so the provider's
 * checkout carries our id (idempotency key `membership_checkout_<id>`); the one writer (sync.ts)
 * makes it a member once the provider says the first period is paid.
 */

export type JoinTarget = { ending: string; tierId: string; interval: MembershipInterval | null };

/** `?page=…&tier=…[&interval=year]` (the bio page's Join link) as a target; null when it names no tier. */
export function joinTarget(search: URLSearchParams): JoinTarget | null {
  const ending = search.get("page") ?? "";
  const tierId = search.get("tier") ?? "";
  if (!ending || !isTierId(tierId)) return null;
  const interval = search.get("interval");
  return { ending, tierId, interval: interval === "year" || interval === "month" ? interval : null };
}

export type JoinOffer = {
  ending: string;
  payeeName: string;
  /** The creator's face, name and colours, which the join page wears. */
  look: CreatorLook;
  tier: PublicTier;
  /** The interval the form starts on: yearly only when asked for and offered. */
  interval: MembershipInterval;
  /** Why no one can join this tier now (the page shows it and no form), or null. */
  closed: string | null;
};

type NotFound = DomainError<"not-found">;
const NO_TIER: NotFound = domainError("not-found", "This page doesn't offer that membership.");

type Found = { page: PublicBioPage; tier: MembershipTier };

/** The page and its tier, or not-found: an unknown page, a tier of another page, or a retired one. */
async function findTier(db: Db, ending: string, tierId: string): Promise<Found | NotFound> {
  const page = await readPublicPage(db, ending);
  if (!page) return domainError("not-found", "There is no such page.");
  const tier = await readTier(db, tierId);
  if (!tier || tier.bioPageId !== page.id || tier.status === "retired") return NO_TIER;
  return { page, tier };
}

type Closed = Refusal<"aborted", "OWNER_UNAVAILABLE" | "CANNOT_TAKE_PAYMENTS" | "TIER_PAUSED" | "TIER_FULL">;

/** Why this tier takes no one now, or null: the same rule the bio page shows the tier by, as tips. */
function whyClosed({ page, tier }: Found): Closed | null {
  if (!page.ownerActive) return refusal("aborted", "OWNER_UNAVAILABLE", OWNER_UNAVAILABLE_PAYMENT_MESSAGE);
  if (!page.takesPayments) return refusal("aborted", "CANNOT_TAKE_PAYMENTS", `${page.name} cannot take payments yet, so no one can join for now.`);
  if (tier.status === "paused") return refusal("aborted", "TIER_PAUSED", `${page.name} isn't taking new ${tier.name} members right now.`);
  if (spotsLeft(tier) === 0) return refusal("aborted", "TIER_FULL", `${tier.name} is full: every place is taken.`);
  return null;
}

/** What the join page shows before anything is typed. */
export async function loadJoinOffer(db: Db, target: JoinTarget): Promise<Success<{ offer: JoinOffer }> | NotFound> {
  const found = await findTier(db, target.ending, target.tierId);
  if ("kind" in found) return found;
  const { page, tier } = found;
  const closed = whyClosed(found);
  // Nothing of a disabled owner's page is shown: not their face, not their colours.
  const plain = { name: page.name, ending: page.customEnding, photoId: null, theme: themeOf(null) };
  const look = page.ownerActive ? ((await readCreatorLook(db, page.id)) ?? plain) : plain;
  const interval = target.interval === "year" && tier.yearlyPrice !== null ? "year" : "month";
  return success({ offer: { ending: page.customEnding, payeeName: page.name, look, tier: publicTierOf(tier), interval, closed: closed?.message ?? null } });
}

/** The join form as typed. */
export type JoinFormValues = { interval: string; amount: string; memberEmail: string; memberName: string; private: boolean };
export type JoinFieldErrors = Partial<Record<"interval" | "amount" | "memberEmail" | "memberName", string>>;

/** Who joins: the signed-in person (their address is used when the field is left blank), or null for a guest. */
export type Joiner = { uid: string; email: string } | null;

/** The client's network (rate limits) and the membership id its browser's join cookie holds (reuse), when it sent one. */
export type JoinClient = { ip: string; reuseToken: string | null };

export type JoinOptions = { platformFeePercent: number; publicOrigin: string; bioOrigin: string };

export type JoinRefusal =
  | FieldRefusal<JoinFieldErrors>
  | NotFound
  | Closed
  | CheckoutRateLimited
  | DomainError<"unavailable" | "bad-gateway">;

const emailSchema = z.email();

/** The price of one period of `tier`, or null when it is not sold by that interval. */
export const priceOf = (tier: Pick<PublicTier, "monthlyPrice" | "yearlyPrice">, interval: MembershipInterval) =>
  interval === "month" ? tier.monthlyPrice : tier.yearlyPrice;

type Checked = { interval: MembershipInterval; amount: number; memberEmail: string; memberName: string | null; private: boolean };

/** Every field at once: blank amount is the tier's price; more is welcome, up to the most a period may cost. */
function checkFields(tier: MembershipTier, values: JoinFormValues, joiner: Joiner): Checked | FieldRefusal<JoinFieldErrors> {
  const errors: JoinFieldErrors = {};
  const interval: MembershipInterval | null = values.interval === "year" ? "year" : values.interval === "month" || values.interval === "" ? "month" : null;
  const price = interval ? priceOf(tier, interval) : null;
  if (!interval || price === null) errors.interval = `${tier.name} is sold by the month only`;
  let amount = price;
  if (values.amount.trim() && price !== null && interval) {
    const typed = parseAmountInput(values.amount);
    if (typed === null) errors.amount = "Enter an amount in dollars, like 10 or 12.50";
    else if (typed < price) errors.amount = `The least you can pay is the tier's price, ${formatMoney(price, tier.currency)}${MEMBERSHIP_PER[interval]}`;
    else if (typed > MEMBERSHIP_LIMITS.maximumPrice) errors.amount = `The most you can pay is ${formatMoney(MEMBERSHIP_LIMITS.maximumPrice, tier.currency)}${MEMBERSHIP_PER[interval]}`;
    else amount = typed;
  }
  const memberEmail = values.memberEmail.trim() || joiner?.email || "";
  if (!memberEmail) errors.memberEmail = "Enter your email: your member link and receipts go there";
  else if (memberEmail.length > 254 || !emailSchema.safeParse(memberEmail).success) errors.memberEmail = "Enter a valid email address";
  const memberName = values.memberName.replace(/\s+/g, " ").trim();
  if ([...memberName].length > MAX_SUPPORTER_NAME_LENGTH) errors.memberName = "Must be under 100 characters";
  if (Object.keys(errors).length > 0 || !interval || amount === null) return fieldRefusal(errors);
  return { interval, amount, memberEmail, memberName: memberName || null, private: values.private };
}

/** A membership id as startMembershipCheckout makes them: anything else is not looked up. */
export const isMembershipId = (value: string | null): value is string => typeof value === "string" && /^mem_[A-Za-z0-9_-]{16}$/.test(value);

/**
 * The open checkout this browser made with exactly these facts, if it is still pending and has
 * time left: a double click, or the back button from the provider's page, opens no second one.
 */
async function reusableCheckout(db: Db, token: string | null, facts: Checked & { tierId: string; memberUid: string | null }, now: Date) {
  if (!isMembershipId(token)) return null;
  const [row] = await db.select().from(memberships).where(and(eq(memberships.id, token), eq(memberships.status, "pending")));
  if (!row?.checkoutUrl || !row.expiresAt || row.expiresAt.getTime() < now.getTime() + REUSE_MIN_REMAINING_MS) return null;
  const same =
    row.tierId === facts.tierId &&
    row.interval === facts.interval &&
    row.amount === facts.amount &&
    row.memberEmail === facts.memberEmail &&
    row.memberName === facts.memberName &&
    row.private === facts.private &&
    row.memberUid === facts.memberUid;
  return same ? { membershipId: row.id, url: row.checkoutUrl } : null;
}

/** The provider's hosted page, only when it is one of its own: any other address is never followed. */
const followable = (provider: Pick<PaymentProvider, "hostedPages">, url: string) => provider.hostedPages.follow(url, "checkout") ?? provider.hostedPages.follow(url, "billing");

/**
 * The join form sent: checks the tier takes members now (active, not full, its owner able to be
 * paid), every field, then opens the provider's hosted subscription checkout paying the creator's
 * connected account less the platform's fee, and answers where to send the browser. Counted
 * against the checkout rate limits as a tip is; the same browser sending the same form again gets
 * its open checkout back, uncounted.
 */
export async function startMembershipCheckout(
  db: Db,
  provider: PaymentProvider,
  request: { ending: string; tierId: string; values: JoinFormValues; joiner: Joiner; client: JoinClient | null },
  options: JoinOptions,
  now = new Date(),
): Promise<Success<{ membershipId: string; url: string }> | JoinRefusal> {
  const found = await findTier(db, request.ending, request.tierId);
  if ("kind" in found) return found;
  const closed = whyClosed(found);
  if (closed) return closed;
  const { page, tier } = found;
  const checked = checkFields(tier, request.values, request.joiner);
  if ("kind" in checked) return checked;
  const [account] = await db.select().from(connectedAccounts).where(eq(connectedAccounts.uid, page.uid));
  if (!account?.completed || !account.providerAccountId) return refusal("aborted", "CANNOT_TAKE_PAYMENTS", `${page.name} cannot take payments yet, so no one can join for now.`);

  const memberUid = request.joiner?.uid ?? null;
  const open = await reusableCheckout(db, request.client?.reuseToken ?? null, { ...checked, tierId: tier.id, memberUid }, now);
  if (open) return success(open);
  if (request.client) {
    // A guest's address gets mail it did not ask for unless limited; a signed-in person's own address is theirs.
    const limited = await checkoutRateLimited(db, { ip: request.client.ip, pageId: page.id, asksForReceipt: memberUid === null }, now);
    if (limited) return limited;
  }

  const membershipId = `mem_${nanoid(16)}`;
  await db.insert(memberships).values({
    id: membershipId,
    tierId: tier.id,
    bioPageId: page.id,
    creatorUid: page.uid,
    memberUid,
    memberEmail: checked.memberEmail,
    memberName: checked.memberName,
    private: checked.private,
    provider: provider.name,
    destinationAccountId: account.providerAccountId,
    interval: checked.interval,
    amount: checked.amount,
    currency: tier.currency,
    status: "pending",
    created: now,
    updatedAt: now,
  });

  let checkout;
  try {
    checkout = await provider.createMembershipCheckout({
      idempotencyKey: `membership_checkout_${membershipId}`,
      membershipId,
      destinationAccountId: account.providerAccountId,
      amount: checked.amount,
      currency: tier.currency,
      interval: checked.interval,
      applicationFeePercent: options.platformFeePercent,
      productName: `${tier.name} membership · ${page.name}`,
      memberEmail: checked.memberEmail,
      successUrl: `${options.publicOrigin}${welcomePath(membershipId)}`,
      cancelUrl: `${options.bioOrigin}/${encodeURIComponent(page.customEnding)}`,
    });
  } catch {
    // No checkout page was given to anyone, so no subscription can start from this row: it goes.
    await db.delete(memberships).where(and(eq(memberships.id, membershipId), eq(memberships.status, "pending")));
    return domainError("unavailable", "The checkout could not be opened. Please try again in a moment.");
  }
  await db
    .update(memberships)
    .set({ providerCheckoutId: checkout.checkoutId, checkoutUrl: checkout.url, expiresAt: checkout.expiresAt, updatedAt: new Date() })
    .where(eq(memberships.id, membershipId));
  const url = followable(provider, checkout.url);
  if (!url) return domainError("bad-gateway", "The checkout could not be opened. Please try again in a moment.");
  return success({ membershipId, url });
}

/** The Set-Cookie value that keeps this browser's last join checkout, for the join and welcome pages only. */
export const JOIN_COOKIE = "sg_join";
export function joinCookie(membershipId: string, https: boolean): string {
  return `${JOIN_COOKIE}=${membershipId}; Path=/app/memberships; Max-Age=3600; HttpOnly; SameSite=Lax${https ? "; Secure" : ""}`;
}

/** The membership id this browser's join cookie holds, or null. */
export function readJoinCookie(cookieHeader: string | null): string | null {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...rest] = part.trim().split("=");
    if (name === JOIN_COOKIE) {
      const value = rest.join("=");
      return isMembershipId(value) ? value : null;
    }
  }
  return null;
}

export type WelcomeView = {
  /** "joined": paid (the welcome message shows); "confirming": the provider has not said so yet; "lapsed": the checkout expired or it ended. */
  state: "joined" | "confirming" | "lapsed";
  payeeName: string;
  ending: string | null;
  look: CreatorLook | null;
  tierName: string;
  /** The tier's welcome message, only once paid (it may hold what only members get). */
  welcomeMessage: string;
  /** What each period costs, formatted with its period: "$50.00/year". */
  price: string;
  /** Where the member link went: in full only to the browser that opened this checkout. */
  memberEmail: string | null;
};

const RUNNING: readonly MembershipStatus[] = RUNNING_MEMBERSHIP_STATUSES;

/**
 * What the welcome page (the checkout's success address) says, from our row: the provider is asked
 * whether the checkout was paid while the row is still pending, since its event may come a moment
 * after the browser. Nothing is written here: the one writer converges the row. Null for an id we
 * do not know.
 */
export async function readWelcome(db: Db, provider: Pick<PaymentProvider, "membershipSubscriptionOfCheckout">, membershipId: string, browserToken: string | null): Promise<WelcomeView | null> {
  if (!isMembershipId(membershipId)) return null;
  const [row] = await db.select().from(memberships).where(eq(memberships.id, membershipId));
  if (!row) return null;
  const tier = await readTier(db, row.tierId);
  const look = await readCreatorLook(db, row.bioPageId);
  let state: WelcomeView["state"] = RUNNING.includes(row.status) ? "joined" : row.status === "pending" ? "confirming" : "lapsed";
  if (state === "confirming" && row.providerCheckoutId) {
    const subscription = await provider.membershipSubscriptionOfCheckout(row.providerCheckoutId).catch(() => null);
    if (subscription) state = "joined";
  }
  const email = row.memberEmail === null ? null : browserToken === row.id ? row.memberEmail : maskedEmail(row.memberEmail);
  return {
    state,
    payeeName: look?.name ?? "",
    ending: look?.ending ?? null,
    look,
    tierName: tier?.name ?? "",
    welcomeMessage: state === "joined" ? (tier?.welcomeMessage ?? "") : "",
    price: `${formatMoney(row.amount, row.currency)}${MEMBERSHIP_PER[row.interval]}`,
    memberEmail: email,
  };
}

/**
 * Why the creator of a membership cannot be paid now, or null: their account was disabled after the
 * checkout opened (ADR 0029), as `whyPayeeCannotBePaid` says of a tip. A provider whose pages run in
 * our process (the sandbox) may ask before it charges a membership's first period.
 */
export async function whyMembershipPayeeCannotBePaid(db: Db, membershipId: string): Promise<string | null> {
  if (!isMembershipId(membershipId)) return null;
  const [row] = await db
    .select({ active: ownerIsActive(memberships.creatorUid).mapWith(Boolean) })
    .from(memberships)
    .where(eq(memberships.id, membershipId));
  return row && !row.active ? OWNER_UNAVAILABLE_PAYMENT_MESSAGE : null;
}
