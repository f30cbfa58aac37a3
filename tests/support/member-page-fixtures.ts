import crypto from "node:crypto";
import type { Db } from "#server/platform/db/client";
import { bioPages, membershipTiers, memberships, user } from "#server/platform/db/schema";
import type { MembershipBilling, PaymentProvider, ProviderMembershipState } from "#server/providers/payments/port";

const rand = () => crypto.randomBytes(5).toString("hex");

export const TEST_MEMBER_KEY = "member-link-key-for-tests";

/** A creator with a page (of its own theme) and the tiers given, in order. */
export async function seedPageWithTiers(db: Db, tiers: Array<Partial<typeof membershipTiers.$inferInsert> & { name: string }>) {
  const uid = `creator_${rand()}`;
  const pageId = `page${rand()}`;
  await db.insert(user).values({ id: uid, name: `Creator ${uid}`, email: `${uid}@creator.example`, emailVerified: true });
  await db.insert(bioPages).values({ id: pageId, uid, customEnding: `maya_${rand()}`, name: "Maya Makes" });
  const ids: string[] = [];
  for (const [position, tier] of tiers.entries()) {
    const id = `tier_${rand()}`;
    await db.insert(membershipTiers).values({ id, bioPageId: pageId, monthlyPrice: 500, position, ...tier });
    ids.push(id);
  }
  return { uid, pageId, tierIds: ids };
}

/** A membership as the writer leaves it once paid (or in the state given). */
export async function seedMembership(db: Db, at: { pageId: string; uid: string; tierId: string }, over: Partial<typeof memberships.$inferInsert> = {}) {
  const id = `mem_${rand()}`;
  await db.insert(memberships).values({
    id,
    tierId: at.tierId,
    bioPageId: at.pageId,
    creatorUid: at.uid,
    memberEmail: `fan_${rand()}@fan.example`,
    memberName: "Fan",
    provider: "sandbox",
    providerSubscriptionId: `sub_${rand()}`,
    providerCustomerId: `cus_${rand()}`,
    destinationAccountId: "acct_test",
    amount: 500,
    status: "active",
    currentPeriodEnd: new Date("2030-01-15T12:00:00Z"),
    startedAt: new Date("2029-12-15T12:00:00Z"),
    ...over,
  });
  return id;
}

export type BillingCall = { method: keyof MembershipBilling; input: unknown };

/**
 * The provider's membership billing as the member's buttons use it: every call recorded; `fail`
 * makes each call throw, as an unreachable provider does. Its card page is on the provider's
 * billing site (`https://billing.test/…`), which `hostedPages.follow` accepts.
 */
export function fakeMembershipBilling(options: { fail?: boolean; cardUrl?: string } = {}) {
  const calls: BillingCall[] = [];
  const record = (method: keyof MembershipBilling, input: unknown) => {
    calls.push({ method, input });
    if (options.fail) throw new Error("provider down");
  };
  const provider = {
    hostedPages: {
      follow: (url: string, page: string) => (page === "billing" && url.startsWith("https://billing.test/") ? url : null),
      externalOrigins: ["https://billing.test"],
    },
    async changeMembershipPrice(input: unknown) {
      record("changeMembershipPrice", input);
    },
    async setMembershipCancelAtPeriodEnd(input: unknown) {
      record("setMembershipCancelAtPeriodEnd", input);
    },
    async createMembershipCardLink(input: unknown) {
      record("createMembershipCardLink", input);
      return { url: options.cardUrl ?? "https://billing.test/card/1" };
    },
    async readMembershipState(subscriptionId: string): Promise<ProviderMembershipState> {
      record("readMembershipState", subscriptionId);
      return {
        subscriptionId,
        customerId: "cus",
        membershipId: null,
        status: "active",
        amount: 500,
        currency: "usd",
        interval: "month",
        currentPeriodEnd: new Date("2030-01-15T12:00:00Z"),
        cancelAtPeriodEnd: false,
        endedAt: null,
        customerEmail: null,
        invoices: [],
      };
    },
  };
  return { provider: provider as unknown as PaymentProvider, calls };
}
