import { and, eq, isNull } from "drizzle-orm";
import type { Db } from "#server/platform/db/client";
import { bioPages, membershipTiers, memberships } from "#server/platform/db/schema";
import { domainError, fieldRefusal, refusal, success, type DomainError, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";
import { CANCEL_MESSAGE_MAX } from "#isomorphic/members";
import { refreshMembership } from "./sync";

/** What cancelling a member needs: the provider, the outbox, the site's words, the member links' key, and what refreshing the row takes. */
export type CancelMemberDeps = WebhookDeps;

export type CancelMemberRefusal =
  | DomainError<"not-found">
  | FieldRefusal<{ message: string }>
  | Refusal<"aborted", "ALREADY_ENDED" | "NOT_STARTED">
  | Refusal<"unavailable", "PROVIDER_UNAVAILABLE">;

export type MemberCancelled = Success<{
  membershipId: string;
  /** This membership had been cancelled by the creator before (a second tab): its first message stands. */
  alreadyCancelled: boolean;
}>;

/** The provider's key: however often the creator asks (two tabs, a retry), the membership is ended once. */
export const endMembershipKey = (membershipId: string) => `membership_end_${membershipId}`;

/** The message as kept: trimmed, "" for none (null stays "the creator never cancelled this one"). */
export function readCancelMessage(value: string): Success<{ message: string }> | FieldRefusal<{ message: string }> {
  const message = value.replace(/\r\n?/g, "\n").trim();
  if (message.length > CANCEL_MESSAGE_MAX) return fieldRefusal({ message: `Keep the message to ${CANCEL_MESSAGE_MAX} characters (it has ${message.length}).` });
  return success({ message });
}

/**
 * The creator ends one of their members at once (a member they no longer want): the provider ends
 * the subscription now, with no further charge and no refund (a refund is each period's own
 * button). The creator's message is kept on the membership first, so the one "membership ended"
 * mail the writer sends (server/domains/memberships/membership-notices.ts) quotes it, whether the
 * refresh below or the provider's event gets there first; the row is then refreshed from the
 * provider's truth so the list shows it ended without waiting. Only the page's owner may; anyone
 * else's is not found.
 */
export async function cancelMember(
  db: Db,
  deps: CancelMemberDeps,
  input: { uid: string; membershipId: string; message: string },
  now = new Date(),
): Promise<MemberCancelled | CancelMemberRefusal> {
  const read = readCancelMessage(input.message);
  if (read.kind === "ERROR") return read;
  const [row] = await db
    .select({ membership: memberships, pageName: bioPages.name, tierName: membershipTiers.name })
    .from(memberships)
    .innerJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .where(and(eq(memberships.id, input.membershipId), eq(bioPages.uid, input.uid)));
  if (!row || row.membership.status === "pending" || row.membership.status === "expired") return domainError("not-found", "There is no such member of yours.");
  const membership = row.membership;
  if (membership.status === "ended") return refusal("aborted", "ALREADY_ENDED", "This membership has already ended.");
  const subscriptionId = membership.providerSubscriptionId;
  if (!subscriptionId) return refusal("aborted", "NOT_STARTED", "This membership has no subscription at the payment provider yet. Try again in a minute.");

  // The message first (only the first click's: a second tab's does not replace it), so the ended mail can quote it.
  const taken = await db
    .update(memberships)
    .set({ cancelMessage: read.message, updatedAt: now })
    .where(and(eq(memberships.id, membership.id), isNull(memberships.cancelMessage)))
    .returning({ id: memberships.id });
  try {
    await deps.provider.endMembershipNow({ idempotencyKey: endMembershipKey(membership.id), subscriptionId });
  } catch (error) {
    if (taken.length > 0) await db.update(memberships).set({ cancelMessage: null }).where(eq(memberships.id, membership.id));
    deps.logger?.warn({ err: error, membershipId: membership.id }, "the provider did not end a membership the creator cancelled");
    return refusal("unavailable", "PROVIDER_UNAVAILABLE", "The payment provider did not answer, so the membership is unchanged. Try again in a moment.");
  }
  const alreadyCancelled = taken.length === 0;

  try {
    await refreshMembership(db, subscriptionId, deps);
  } catch (error) {
    // The provider's event converges the row later; the creator's action itself is done.
    deps.logger?.warn({ err: error, membershipId: membership.id }, "a cancelled membership was not refreshed at once");
  }
  return success({ membershipId: membership.id, alreadyCancelled });
}
