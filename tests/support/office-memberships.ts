import crypto from "node:crypto";
import type { Db } from "#server/platform/db/client";
import { memberships, membershipTiers, sponsorSessions, user, type MembershipInterval, type MembershipStatus } from "#server/platform/db/schema";
import type { Payee } from "#tests/support/payments";

/**
 * Memberships written straight into their tables, for tests of what reads them (the back office,
 * metrics, reconciliation): they do not go through joining or the provider, which have tests of
 * their own.
 */
const rand = () => crypto.randomBytes(5).toString("hex");

export async function seedTier(db: Db, payee: Payee, o: { name?: string; monthlyPrice?: number; currency?: string } = {}): Promise<string> {
  const id = `tier_${rand()}`;
  await db.insert(membershipTiers).values({ id, bioPageId: payee.pageId, name: o.name ?? `Tier ${id.slice(-4)}`, monthlyPrice: o.monthlyPrice ?? 500, currency: o.currency ?? "usd" });
  return id;
}

/** A signed-in fan, for a membership's `memberUid`. */
export async function seedFan(db: Db): Promise<{ uid: string; email: string }> {
  const uid = `fan_${rand()}`;
  const email = `${uid}@fan.example`;
  await db.insert(user).values({ id: uid, name: `Fan ${uid}`, email, emailVerified: true });
  return { uid, email };
}

export type SeededMembership = { id: string; subscriptionId: string; tierId: string; amount: number; currency: string };

export async function seedMembership(
  db: Db,
  payee: Payee,
  tierId: string,
  o: { status?: MembershipStatus; interval?: MembershipInterval; amount?: number; currency?: string; memberUid?: string | null; memberEmail?: string; created?: Date } = {},
): Promise<SeededMembership> {
  const id = `mem_${rand()}`;
  const subscriptionId = `sub_${rand()}`;
  const amount = o.amount ?? 500;
  const currency = o.currency ?? "usd";
  await db.insert(memberships).values({
    id,
    tierId,
    bioPageId: payee.pageId,
    creatorUid: payee.uid,
    memberUid: o.memberUid ?? null,
    memberEmail: o.memberEmail ?? `member_${rand()}@fan.example`,
    memberName: "A member",
    provider: "sandbox",
    providerSubscriptionId: subscriptionId,
    destinationAccountId: payee.accountId,
    interval: o.interval ?? "month",
    amount,
    currency,
    status: o.status ?? "active",
    startedAt: o.created ?? new Date(),
    ...(o.created ? { created: o.created } : {}),
  });
  return { id, subscriptionId, tierId, amount, currency };
}

/** One paid period of a membership as a pending sponsor session of kind "membership", as the writer makes it. */
export async function seedMembershipPeriod(db: Db, payee: Payee, membership: SeededMembership, o: { platformFee?: number } = {}) {
  const sessionId = `ss_${rand()}`;
  const paymentIntentId = `pi_${rand()}`;
  await db.insert(sponsorSessions).values({
    id: sessionId,
    kind: "membership",
    provider: "sandbox",
    posterUid: payee.uid,
    bioPageId: payee.pageId,
    membershipId: membership.id,
    destinationAccountId: payee.accountId,
    amount: membership.amount,
    currency: membership.currency,
    platformFee: o.platformFee ?? 0,
    sponsorEmail: `member_${rand()}@fan.example`,
    message: "",
    paymentIntentId,
  });
  return { sessionId, paymentIntentId, amount: membership.amount, platformFee: o.platformFee ?? 0 };
}
