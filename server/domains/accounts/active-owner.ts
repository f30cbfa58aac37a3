import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { user } from "#server/platform/db/schema";
import { domainError, type DomainError } from "#server/platform/errors";

/**
 * The one rule for "is this owner active": an account staff
 * disabled has no public side — its bio pages, opportunities and profile card
 * leave every list and page, and its pages take no payments — until it is
 * enabled again. Every public reader filters with this condition instead of
 * checking rows one by one.
 *
 * Written as an anti-join on the few disabled accounts (the partial index
 * `user_disabled_idx`), so a list keeps the index that orders or filters it
 * (server/platform/db/integrity.test.ts) and pays one tiny probe per row it returns.
 */
export function ownerIsActive(uid: AnyColumn | SQL): SQL {
  return sql`not exists (select 1 from ${user} where ${user.id} = ${uid} and ${user.disabled})`;
}

/** What a person sees where a disabled account's page would be. */
export const OWNER_UNAVAILABLE_MESSAGE = "This page is unavailable.";
/** …and where someone would pay it. */
export const OWNER_UNAVAILABLE_PAYMENT_MESSAGE = `${OWNER_UNAVAILABLE_MESSAGE} It can't take payments.`;

/** A page whose owner is disabled takes no new payment. */
export function refuseUnlessOwnerActive(page: { ownerActive: boolean }): DomainError<"aborted"> | null {
  return page.ownerActive ? null : domainError("aborted", OWNER_UNAVAILABLE_PAYMENT_MESSAGE);
}
