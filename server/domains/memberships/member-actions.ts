import { and, eq, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { domainError, refusal, success, type DomainError, type Refusal, type Success } from "#server/platform/errors";
import { bioPages, membershipTiers, memberships, MEMBERSHIP_INTERVALS, type MembershipInterval } from "#server/platform/db/schema";
import { memberLinkEmail } from "#server/platform/email/messages";
import { formatIsoDate, formatMoney } from "#isomorphic/format";
import { MEMBERSHIP_PER } from "#isomorphic/membership-limits";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";
import { memberPath, signMemberToken } from "./member-link";
import { isManageable, maskedEmail, membershipOfToken, runningCounts, tierPriceAt, tierTakesMembers, type LinkNotValid, type MembershipRow } from "./member-page";
import { refreshMembership } from "./sync";

/** What the member's buttons need: the provider and mail (as a webhook's handler has them), and the key member links are signed with. */
export type MemberActionDeps = WebhookDeps;

/** The buttons of the member page, as the form sends them (strings, checked here). */
export type MemberActionRequest = { intent: string; tierId?: string; interval?: string };

export const MEMBER_ACTION_INTENTS = ["change-tier", "switch-interval", "update-card", "cancel", "resume"] as const;
export type MemberActionIntent = (typeof MEMBER_ACTION_INTENTS)[number];

export type MemberActionResult =
  /** Done: `message` says what changed and from when. */
  | Success<{ outcome: "CHANGED"; message: string }>
  /** The provider's card page to send the browser to. */
  | Success<{ outcome: "REDIRECT"; url: string }>
  | LinkNotValid
  | Refusal<"aborted", MemberActionRefusal>
  | Refusal<"not-found", "NO_SUCH_TIER">
  | Refusal<"invalid-argument", "UNKNOWN_ACTION">
  | Refusal<"unavailable", "PROVIDER_UNREACHABLE">
  | DomainError<"bad-gateway">;

type MemberActionRefusal =
  | "NOT_RUNNING"
  | "CANCELLED"
  | "NOT_CANCELLED"
  | "PERIOD_OVER"
  | "SAME_TIER"
  | "TIER_NOT_OPEN"
  | "TIER_FULL"
  | "NO_YEARLY_PRICE"
  | "SAME_INTERVAL"
  | "NO_CUSTOMER"
  | "NO_EMAIL";

export const PROVIDER_UNREACHABLE_MESSAGE = "We could not reach the payment provider, so nothing changed. Please try again in a moment.";
export const CARD_PAGE_UNAVAILABLE = "The card page could not be opened. Please try again in a moment.";

/** "December 29, 2026": a period's last day, on the same calendar for everyone (UTC), as Pro says it. */
export const dayText = (date: Date) => formatIsoDate(date.toISOString().slice(0, 10));

const priceText = (amount: number, currency: string, interval: MembershipInterval) => `${formatMoney(amount, currency)}${MEMBERSHIP_PER[interval]}`;

const unreachable = () => refusal("unavailable", "PROVIDER_UNREACHABLE", PROVIDER_UNREACHABLE_MESSAGE);

/**
 * Each provider call's idempotency key: the membership, what is asked and a counter, the row's
 * `updatedAt` as read before the call. A retry of the same click carries the same key (one
 * change); a later change back and forth (monthly, yearly, monthly) gets a key of its own, so the
 * provider never answers it with an earlier call's result.
 */
const keyOf = (membership: MembershipRow, what: string) => `membership_${membership.id}_${what}_${membership.updatedAt.getTime()}`;

/**
 * What the member page's buttons do (`/membership/<token>`, signed out: the link is the permission).
 * Every change goes to the provider first, with an idempotency key, then the row is read back from
 * the provider's truth (`refreshMembership`) so the page shows it before the provider's event.
 * Price and billing changes apply from the next renewal, as Pro's plan switch does: no proration.
 */
export async function runMemberAction(db: Db, deps: MemberActionDeps, token: string, request: MemberActionRequest, options: { publicOrigin: string; now?: Date }): Promise<MemberActionResult> {
  const found = await membershipOfToken(db, deps.memberLinkKey, token);
  if (found.kind === "ERROR") return found;
  const { membership } = found;
  const now = options.now ?? new Date();
  if (!(MEMBER_ACTION_INTENTS as readonly string[]).includes(request.intent)) return refusal("invalid-argument", "UNKNOWN_ACTION", "Choose one of the buttons on the page.");
  if (!isManageable(membership)) {
    return refusal(
      "aborted",
      "NOT_RUNNING",
      membership.status === "pending" || membership.status === "expired"
        ? "This membership never started: its checkout was not paid, so there is nothing to change."
        : "This membership has ended, so there is nothing to change. You can join again from the creator's page.",
    );
  }
  switch (request.intent as MemberActionIntent) {
    case "change-tier":
      return changeTier(db, deps, membership, request.tierId ?? "");
    case "switch-interval":
      return switchInterval(db, deps, membership, request.interval ?? "");
    case "update-card":
      return cardLink(deps, membership, `${options.publicOrigin}${memberPath(token)}?card=updated`);
    case "cancel":
      return cancel(db, deps, membership);
    case "resume":
      return resume(db, deps, membership, now);
  }
}

/** Reads the provider's truth into the row; a failure here only delays it until the provider's event. */
async function refreshAfter(db: Db, deps: MemberActionDeps, subscriptionId: string): Promise<void> {
  try {
    await refreshMembership(db, subscriptionId, deps);
  } catch (error) {
    deps.logger?.warn({ err: error, subscriptionId }, "membership not refreshed after the member's change; the provider's event will bring it");
  }
}

/** The change went through at the provider: the counter moves on (and the tier, when it changed). */
async function markChanged(db: Db, membership: MembershipRow, tierId?: string): Promise<void> {
  await db
    .update(memberships)
    .set({ updatedAt: sql`greatest(now(), ${memberships.updatedAt} + interval '1 millisecond')`, ...(tierId ? { tierId } : {}) })
    .where(eq(memberships.id, membership.id));
}

async function pageName(db: Db, pageId: string): Promise<string> {
  const [page] = await db.select({ name: bioPages.name }).from(bioPages).where(eq(bioPages.id, pageId));
  return page?.name ?? "";
}

const renewalText = (membership: MembershipRow) => (membership.currentPeriodEnd ? `your next renewal on ${dayText(membership.currentPeriodEnd)}` : "your next renewal");

function refuseIfCancelled(membership: MembershipRow): Refusal<"aborted", "CANCELLED"> | null {
  return membership.cancelAtPeriodEnd || membership.status === "cancelled"
    ? refusal("aborted", "CANCELLED", "Your membership is cancelled. Resume it first, then change it.")
    : null;
}

/**
 * Another tier of the same page, at that tier's price for the membership's interval (a member who
 * chose to pay more pays the new tier's price). The tier is the new one at once; the price from
 * the next renewal. A paused, retired or full tier takes no one.
 */
async function changeTier(db: Db, deps: MemberActionDeps, membership: MembershipRow, tierId: string): Promise<MemberActionResult> {
  const cancelled = refuseIfCancelled(membership);
  if (cancelled) return cancelled;
  const [tier] = tierId
    ? await db
        .select()
        .from(membershipTiers)
        .where(and(eq(membershipTiers.id, tierId), eq(membershipTiers.bioPageId, membership.bioPageId), eq(membershipTiers.currency, membership.currency)))
    : [];
  if (!tier) return refusal("not-found", "NO_SUCH_TIER", "That tier is not offered on this page. Choose one of the tiers shown.");
  if (tier.id === membership.tierId) return refusal("aborted", "SAME_TIER", `You're already a ${tier.name} member.`);
  if (tier.status !== "active") return refusal("aborted", "TIER_NOT_OPEN", `${tier.name} is not taking new members right now.`);
  const running = (await runningCounts(db, [tier.id])).get(tier.id) ?? 0;
  if (!tierTakesMembers(tier, running)) return refusal("aborted", "TIER_FULL", `${tier.name} is full: it has all the members it takes.`);
  const price = tierPriceAt(tier, membership.interval);
  if (price === null) return refusal("aborted", "NO_YEARLY_PRICE", `${tier.name} is sold by the month only. Switch to monthly billing first, then change your tier.`);
  try {
    await deps.provider.changeMembershipPrice({
      idempotencyKey: keyOf(membership, `price_${tier.id}_${membership.interval}`),
      subscriptionId: membership.providerSubscriptionId!,
      amount: price,
      interval: membership.interval,
      productName: `${tier.name} membership · ${await pageName(db, membership.bioPageId)}`,
    });
  } catch {
    return unreachable();
  }
  await markChanged(db, membership, tier.id);
  await refreshAfter(db, deps, membership.providerSubscriptionId!);
  return success({
    outcome: "CHANGED" as const,
    message: `You're now a ${tier.name} member. From ${renewalText(membership)}, you pay ${priceText(price, membership.currency, membership.interval)}.`,
  });
}

/** Monthly ↔ yearly at the tier's price for that interval; yearly only where the tier has a yearly price. */
async function switchInterval(db: Db, deps: MemberActionDeps, membership: MembershipRow, asked: string): Promise<MemberActionResult> {
  if (!(MEMBERSHIP_INTERVALS as readonly string[]).includes(asked)) return refusal("invalid-argument", "UNKNOWN_ACTION", "Choose monthly or yearly billing.");
  const interval = asked as MembershipInterval;
  const cancelled = refuseIfCancelled(membership);
  if (cancelled) return cancelled;
  if (interval === membership.interval) return refusal("aborted", "SAME_INTERVAL", `You already pay ${interval === "year" ? "yearly" : "monthly"}.`);
  const [tier] = await db.select().from(membershipTiers).where(eq(membershipTiers.id, membership.tierId));
  const price = tier ? tierPriceAt(tier, interval) : null;
  if (!tier || price === null) return refusal("aborted", "NO_YEARLY_PRICE", `${tier?.name ?? "This tier"} is sold by the month only.`);
  try {
    await deps.provider.changeMembershipPrice({
      idempotencyKey: keyOf(membership, `price_${tier.id}_${interval}`),
      subscriptionId: membership.providerSubscriptionId!,
      amount: price,
      interval,
      productName: `${tier.name} membership · ${await pageName(db, membership.bioPageId)}`,
    });
  } catch {
    return unreachable();
  }
  await markChanged(db, membership);
  await refreshAfter(db, deps, membership.providerSubscriptionId!);
  return success({
    outcome: "CHANGED" as const,
    message: `You switched to ${interval === "year" ? "yearly" : "monthly"} billing. From ${renewalText(membership)}, you pay ${priceText(price, membership.currency, interval)}.`,
  });
}

/** The provider's page where the member puts in a new card (a past-due renewal is retried with it), back to the member page. */
async function cardLink(deps: MemberActionDeps, membership: MembershipRow, returnUrl: string): Promise<MemberActionResult> {
  if (!membership.providerCustomerId) return refusal("aborted", "NO_CUSTOMER", "This membership has no card on file to update.");
  let url: string;
  try {
    ({ url } = await deps.provider.createMembershipCardLink({ customerId: membership.providerCustomerId, subscriptionId: membership.providerSubscriptionId!, returnUrl }));
  } catch {
    return refusal("unavailable", "PROVIDER_UNREACHABLE", CARD_PAGE_UNAVAILABLE);
  }
  // Only the provider's own billing pages are followed, as for Pro's portal.
  const followed = deps.provider.hostedPages.follow(url, "billing");
  if (!followed) return domainError("bad-gateway", CARD_PAGE_UNAVAILABLE);
  return success({ outcome: "REDIRECT" as const, url: followed });
}

/** Cancelled at the period's end: a member (and not charged again) until then. */
async function cancel(db: Db, deps: MemberActionDeps, membership: MembershipRow): Promise<MemberActionResult> {
  if (membership.cancelAtPeriodEnd || membership.status === "cancelled") {
    return refusal("aborted", "CANCELLED", membership.currentPeriodEnd ? `Your membership is already cancelled: it ends on ${dayText(membership.currentPeriodEnd)}.` : "Your membership is already cancelled.");
  }
  try {
    await deps.provider.setMembershipCancelAtPeriodEnd({ idempotencyKey: keyOf(membership, "cancel"), subscriptionId: membership.providerSubscriptionId!, cancelAtPeriodEnd: true });
  } catch {
    return unreachable();
  }
  await markChanged(db, membership);
  await refreshAfter(db, deps, membership.providerSubscriptionId!);
  return success({
    outcome: "CHANGED" as const,
    message: membership.currentPeriodEnd
      ? `Your membership is cancelled. You stay a member until ${dayText(membership.currentPeriodEnd)}, and you won't be charged again.`
      : "Your membership is cancelled. You stay a member until the end of the period you paid for, and you won't be charged again.",
  });
}

/** Undoes a cancel while the paid period lasts: it renews again as before. */
async function resume(db: Db, deps: MemberActionDeps, membership: MembershipRow, now: Date): Promise<MemberActionResult> {
  if (!membership.cancelAtPeriodEnd && membership.status !== "cancelled") return refusal("aborted", "NOT_CANCELLED", "Your membership is not cancelled: there is nothing to resume.");
  if (!membership.currentPeriodEnd || membership.currentPeriodEnd <= now) return refusal("aborted", "PERIOD_OVER", "The period you paid for is over, so this membership cannot be resumed. You can join again from the creator's page.");
  try {
    await deps.provider.setMembershipCancelAtPeriodEnd({ idempotencyKey: keyOf(membership, "resume"), subscriptionId: membership.providerSubscriptionId!, cancelAtPeriodEnd: false });
  } catch {
    return unreachable();
  }
  await markChanged(db, membership);
  await refreshAfter(db, deps, membership.providerSubscriptionId!);
  return success({ outcome: "CHANGED" as const, message: `Your membership is back on. It renews on ${dayText(membership.currentPeriodEnd)}.` });
}

export type NewLinksResult =
  /** Mailed: the page that asked no longer opens (its link just stopped). */
  | Success<{ sentTo: string; message: string }>
  | LinkNotValid
  | Refusal<"aborted", "NO_EMAIL">;

/**
 * "Send me a new link": every earlier link stops (the link version moves on) and the one new link
 * goes to the member's address, never to the page that asked: someone holding a leaked link
 * cannot keep access by asking. The mail is written with the change, so the link never moves on
 * without its mail. Works for an ended membership too: its receipts' links are revoked the same way.
 */
export async function sendNewMemberLinks(db: Db, deps: MemberActionDeps, token: string, options: { publicOrigin: string }): Promise<NewLinksResult> {
  const found = await membershipOfToken(db, deps.memberLinkKey, token);
  if (found.kind === "ERROR") return found;
  const { membership } = found;
  const to = membership.memberEmail;
  if (!to) return refusal("aborted", "NO_EMAIL", "We have no email address for this membership, so we cannot send you a new link. Please write to support.");
  const [tier] = await db.select({ name: membershipTiers.name }).from(membershipTiers).where(eq(membershipTiers.id, membership.tierId));
  const name = await pageName(db, membership.bioPageId);
  const sent = await db.transaction(async (tx) => {
    const [bumped] = await tx
      .update(memberships)
      .set({ linkVersion: sql`${memberships.linkVersion} + 1`, updatedAt: new Date() })
      .where(and(eq(memberships.id, membership.id), eq(memberships.linkVersion, membership.linkVersion)))
      .returning({ linkVersion: memberships.linkVersion });
    // Another click got there first: this link is already stale, and its mail is on its way.
    if (!bumped) return false;
    const url = `${options.publicOrigin}${memberPath(signMemberToken(deps.memberLinkKey, membership.id, bumped.linkVersion))}`;
    await deps.mailer.sendWithin(tx, await memberLinkEmail({ to, site: deps.site, pageName: name, tierName: tier?.name ?? "", url }));
    return true;
  });
  if (!sent) return refusal("not-found", "LINK_NOT_VALID", "This link was just replaced: check your email for the new one.");
  deps.mailer.deliverDue().catch((error: unknown) => deps.logger?.warn({ err: error }, "member link mail not sent yet; the worker retries"));
  const sentTo = maskedEmail(to);
  return success({ sentTo, message: `We emailed a new link to ${sentTo}. Every earlier link, this one included, no longer works.` });
}
