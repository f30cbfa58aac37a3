import { render } from "@react-email/render";
import { and, eq, isNull } from "drizzle-orm";
import { createElement } from "react";
import type { Db } from "#server/platform/db/client";
import { bioPages, membershipTiers, memberships } from "#server/platform/db/schema";
import { domainError, fieldRefusal, refusal, success, type DomainError, type FieldRefusal, type Refusal, type Success } from "#server/platform/errors";
import type { MailMessage } from "#server/platform/email/mailer";
import type { EmailSite } from "#server/platform/email/messages";
import { PaymentMail } from "#server/platform/email/templates/PaymentMail";
import type { WebhookDeps } from "#server/domains/payments/notices/notice-deps";
import { CANCEL_MESSAGE_MAX } from "#isomorphic/members";
import { memberPath, signMemberToken } from "./member-link";
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
  /** This membership had been cancelled by the creator before: nothing was mailed again. */
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

const longDate = (at: Date) => at.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" });

/** The mail to the member: who ended it, that nothing more is charged, the creator's words, and their member page. */
export async function memberCancelledEmail(input: {
  to: string;
  site: EmailSite;
  pageName: string;
  tierName: string;
  message: string;
  endedAt: Date;
  url: string;
  membershipId: string;
}): Promise<MailMessage> {
  const { to, site, pageName, tierName, message, endedAt, url, membershipId } = input;
  const paragraphs = [
    `${pageName} ended your ${tierName} membership on ${longDate(endedAt)} (UTC). You will not be charged for it again.`,
    ...(message ? [`Their message to you: “${message}”`] : []),
    "Payments you already made stay as they are; a refund, if there is one, comes to your card separately. Your member page keeps your receipts.",
  ];
  const email = createElement(PaymentMail, {
    appName: site.appName,
    supportEmail: site.supportEmail,
    preview: `${pageName} ended your ${tierName} membership.`,
    heading: `Your ${tierName} membership has ended`,
    paragraphs,
    buttonLabel: "Your membership",
    url,
  });
  const [html, text] = await Promise.all([render(email), render(email, { plainText: true })]);
  return { to, subject: `${pageName} ended your membership`, html, text, meta: { kind: "membership-cancelled-by-creator", url, reference: membershipId } };
}

/**
 * The creator ends one of their members at once (a member they no longer want): the provider ends
 * the subscription now, with no further charge and no refund (a refund is each period's own
 * button), the creator's message is kept on the membership and mailed to the member with the
 * mail's own transaction, and the row is refreshed from the provider's truth so the list shows it
 * ended without waiting for the event. Only the page's owner may; anyone else's is not found.
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

  try {
    await deps.provider.endMembershipNow({ idempotencyKey: endMembershipKey(membership.id), subscriptionId });
  } catch (error) {
    deps.logger?.warn({ err: error, membershipId: membership.id }, "the provider did not end a membership the creator cancelled");
    return refusal("unavailable", "PROVIDER_UNAVAILABLE", "The payment provider did not answer, so the membership is unchanged. Try again in a moment.");
  }

  // Once the provider ended it: the message is kept and mailed once, whichever click got here first.
  const alreadyCancelled = await db.transaction(async (tx) => {
    const taken = await tx
      .update(memberships)
      .set({ cancelMessage: read.message, updatedAt: now })
      .where(and(eq(memberships.id, membership.id), isNull(memberships.cancelMessage)))
      .returning({ id: memberships.id });
    if (taken.length === 0) return true;
    if (membership.memberEmail) {
      const token = signMemberToken(deps.memberLinkKey, membership.id, membership.linkVersion);
      await deps.mailer.sendWithin(
        tx,
        await memberCancelledEmail({
          to: membership.memberEmail,
          site: deps.site,
          pageName: row.pageName,
          tierName: row.tierName,
          message: read.message,
          endedAt: now,
          url: `${deps.site.publicOrigin}${memberPath(token)}`,
          membershipId: membership.id,
        }),
      );
    }
    return false;
  });

  try {
    await refreshMembership(db, subscriptionId, deps);
  } catch (error) {
    // The provider's event converges the row later; the creator's action itself is done.
    deps.logger?.warn({ err: error, membershipId: membership.id }, "a cancelled membership was not refreshed at once");
  }
  return success({ membershipId: membership.id, alreadyCancelled });
}
