import { and, desc, eq, notInArray, or, sql } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { success, type Success } from "#server/platform/errors";
import { bioPages, membershipTiers, memberships, type MembershipInterval, type MembershipStatus } from "#server/platform/db/schema";
import { memberPath, signMemberToken } from "./member-link";

/** The most a person's list shows: far more than anyone joins, and a bound on the page. */
export const MY_MEMBERSHIPS_LIMIT = 200;

export type MyMembership = {
  id: string;
  tierName: string;
  pageName: string;
  pageEnding: string;
  status: MembershipStatus;
  amount: number;
  currency: string;
  interval: MembershipInterval;
  cancelAtPeriodEnd: boolean;
  /** The next renewal, or the last day of a cancelled one. */
  currentPeriodEnd: Date | null;
  endedAt: Date | null;
  /** The member page, signed as the mails sign it (`/membership/<token>`). */
  managePath: string;
};

const ORDER = sql`case ${memberships.status} when 'past_due' then 0 when 'active' then 1 when 'cancelled' then 2 else 3 end`;

/**
 * The signed-in person's memberships (`/app/account/memberships`): those they joined signed in,
 * and those joined as a guest with the address they have verified (the caller has checked it is
 * verified: an address is only proof once it is). Checkouts never paid are left out. Each has
 * its member link, so the person manages it as the mails let them.
 */
export async function listMyMemberships(db: Db, memberLinkKey: string, person: { uid: string; verifiedEmail: string }): Promise<Success<{ memberships: MyMembership[] }>> {
  const rows = await db
    .select({
      id: memberships.id,
      linkVersion: memberships.linkVersion,
      tierName: membershipTiers.name,
      pageName: bioPages.name,
      pageEnding: bioPages.customEnding,
      status: memberships.status,
      amount: memberships.amount,
      currency: memberships.currency,
      interval: memberships.interval,
      cancelAtPeriodEnd: memberships.cancelAtPeriodEnd,
      currentPeriodEnd: memberships.currentPeriodEnd,
      endedAt: memberships.endedAt,
    })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .where(
      and(
        or(eq(memberships.memberUid, person.uid), sql`lower(${memberships.memberEmail}) = ${person.verifiedEmail.toLowerCase()}`),
        notInArray(memberships.status, ["pending", "expired"]),
      ),
    )
    .orderBy(ORDER, desc(memberships.created), desc(memberships.id))
    .limit(MY_MEMBERSHIPS_LIMIT);
  return success({
    memberships: rows.map(({ linkVersion, ...row }) => ({ ...row, managePath: memberPath(signMemberToken(memberLinkKey, row.id, linkVersion)) })),
  });
}
