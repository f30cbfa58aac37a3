import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { refusal, success, type Refusal, type Success } from "#server/platform/errors";
import { membershipTiers, memberships, type MembershipInterval, type MembershipStatus, type MembershipTierStatus } from "#server/platform/db/schema";
import { readCreatorLook, type CreatorLook } from "#server/domains/bio/creator-look";
import { readMemberToken } from "./member-link";

export const MEMBER_LINK_NOT_VALID =
  "This member link is not valid. It may be cut short or mistyped, or you asked for new links since it was sent: use the newest link we emailed you, or sign in and open My memberships.";

/** The statuses in which someone still belongs and is counted against a tier's member limit. */
export const RUNNING_STATUSES = ["active", "past_due", "cancelled"] as const satisfies readonly MembershipStatus[];

export type MembershipRow = typeof memberships.$inferSelect;
export type TierRow = typeof membershipTiers.$inferSelect;

export type LinkNotValid = Refusal<"not-found", "LINK_NOT_VALID">;

const linkNotValid = (): LinkNotValid => refusal("not-found", "LINK_NOT_VALID", MEMBER_LINK_NOT_VALID);

/**
 * The membership a member link opens, or one refusal for every reason it does not (a signature
 * not ours, a link version since replaced, a membership gone): which one is not said, so a
 * guessed or stale link learns nothing.
 */
export async function membershipOfToken(db: Pick<Db, "select">, key: string, token: string): Promise<Success<{ membership: MembershipRow }> | LinkNotValid> {
  const read = readMemberToken(key, token);
  if (!read) return linkNotValid();
  const [membership] = await db.select().from(memberships).where(eq(memberships.id, read.membershipId));
  if (!membership || membership.linkVersion !== read.linkVersion) return linkNotValid();
  return success({ membership });
}

/** How many still belong to each of these tiers (what a member limit counts). */
export async function runningCounts(db: Pick<Db, "select">, tierIds: string[]): Promise<Map<string, number>> {
  if (tierIds.length === 0) return new Map();
  const rows = await db
    .select({ tierId: memberships.tierId, n: count() })
    .from(memberships)
    .where(and(inArray(memberships.tierId, tierIds), inArray(memberships.status, [...RUNNING_STATUSES])))
    .groupBy(memberships.tierId);
  return new Map(rows.map((row) => [row.tierId, Number(row.n)]));
}

/** A tier the member may move to: on the page, taking members, with room, in the membership's currency. */
export function tierTakesMembers(tier: TierRow, running: number): boolean {
  return tier.status === "active" && (tier.memberLimit === null || running < tier.memberLimit);
}

/** What a tier costs per `interval`, or null when it is not sold that way (no yearly price). */
export function tierPriceAt(tier: Pick<TierRow, "monthlyPrice" | "yearlyPrice">, interval: MembershipInterval): number | null {
  return interval === "month" ? tier.monthlyPrice : tier.yearlyPrice;
}

/** What the member may change by themselves: only a membership the provider still bills. */
export function isManageable(membership: Pick<MembershipRow, "providerSubscriptionId" | "status">): boolean {
  return membership.providerSubscriptionId !== null && (RUNNING_STATUSES as readonly string[]).includes(membership.status);
}

export type SwitchableTier = {
  id: string;
  name: string;
  benefits: string[];
  /** At the membership's interval: what a switch to it charges from the next renewal. */
  price: number;
};

/** "m•••@example.com": where the member's mail goes, said without spelling the address out to whoever holds this page. */
export function maskedEmail(email: string): string {
  const at = email.lastIndexOf("@");
  if (at <= 0) return "your address";
  return `${email[0]}•••${email.slice(at)}`;
}

/** What the member page shows: one membership as its member sees it. */
export type MemberPage = {
  membershipId: string;
  status: MembershipStatus;
  /** Where the mails (and a new link) go, masked: whoever holds a forwarded link does not learn the address. */
  mailGoesTo: string | null;
  amount: number;
  currency: string;
  interval: MembershipInterval;
  /** When the paid period ends: the next renewal, or the last day of a cancelled one. */
  currentPeriodEnd: Date | null;
  endedAt: Date | null;
  cancelAtPeriodEnd: boolean;
  /** A message from the creator when they ended it. */
  cancelMessage: string | null;
  /** The last renewal failed; the provider retries with the card on file, or a new one. */
  pastDue: boolean;
  /** The provider still bills it: the change buttons show. */
  manageable: boolean;
  /** Cancelled, the period not over yet: "Resume" shows. */
  resumable: boolean;
  tier: { id: string; name: string; benefits: string[]; status: MembershipTierStatus; monthlyPrice: number; yearlyPrice: number | null };
  page: { id: string; name: string; ending: string; look: CreatorLook | null };
  /** The other interval at this tier's price, when the tier sells it. */
  otherInterval: { interval: MembershipInterval; price: number } | null;
  /** Other tiers of the page it could move to, in the page's order. */
  switchableTiers: SwitchableTier[];
};

/**
 * The member page (`/membership/<token>`), open signed out: the link is the permission. A bad
 * signature or a link version since replaced is the same 404 as a membership that is gone.
 */
export async function readMemberPage(db: Db, key: string, token: string, now = new Date()): Promise<Success<{ member: MemberPage }> | LinkNotValid> {
  const found = await membershipOfToken(db, key, token);
  if (found.kind === "ERROR") return found;
  const { membership } = found;
  const [tiers, look] = await Promise.all([
    db.select().from(membershipTiers).where(eq(membershipTiers.bioPageId, membership.bioPageId)).orderBy(asc(membershipTiers.position), asc(membershipTiers.created)),
    readCreatorLook(db, membership.bioPageId),
  ]);
  const tier = tiers.find((each) => each.id === membership.tierId);
  // A membership always names a tier of its page (tiers are never deleted once joined).
  if (!tier) return linkNotValid();
  const candidates = tiers.filter((each) => each.id !== tier.id && each.currency === membership.currency && each.status === "active");
  const counts = await runningCounts(
    db,
    candidates.map((each) => each.id),
  );
  const manageable = isManageable(membership);
  const otherIntervalName: MembershipInterval = membership.interval === "month" ? "year" : "month";
  const otherPrice = tierPriceAt(tier, otherIntervalName);
  return success({
    member: {
      membershipId: membership.id,
      status: membership.status,
      mailGoesTo: membership.memberEmail ? maskedEmail(membership.memberEmail) : null,
      amount: membership.amount,
      currency: membership.currency,
      interval: membership.interval,
      currentPeriodEnd: membership.currentPeriodEnd,
      endedAt: membership.endedAt,
      cancelAtPeriodEnd: membership.cancelAtPeriodEnd,
      cancelMessage: membership.cancelMessage,
      pastDue: membership.status === "past_due",
      manageable,
      resumable: manageable && membership.status === "cancelled" && membership.currentPeriodEnd !== null && membership.currentPeriodEnd > now,
      tier: { id: tier.id, name: tier.name, benefits: tier.benefits, status: tier.status, monthlyPrice: tier.monthlyPrice, yearlyPrice: tier.yearlyPrice },
      page: { id: membership.bioPageId, name: look?.name ?? tier.name, ending: look?.ending ?? "", look },
      otherInterval: otherPrice === null ? null : { interval: otherIntervalName, price: otherPrice },
      switchableTiers: candidates
        .filter((each) => tierTakesMembers(each, counts.get(each.id) ?? 0))
        .flatMap((each) => {
          const price = tierPriceAt(each, membership.interval);
          return price === null ? [] : [{ id: each.id, name: each.name, benefits: each.benefits, price }];
        }),
    },
  });
}
