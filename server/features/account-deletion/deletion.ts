import { and, eq, inArray, isNotNull, like, ne, or, sql } from "drizzle-orm";
import type { Auth } from "#server/domains/auth/auth";
import type { Db } from "#server/platform/db/client";
import {
  account,
  billingCustomers,
  bioPages,
  connectedAccounts,
  emailOutbox,
  hearts,
  logs,
  memberships,
  notifications,
  opportunityPosts,
  paymentEvents,
  proMemberships,
  queuedTasks,
  sponsorSessions,
  totals,
  user,
  verification,
} from "#server/platform/db/schema";
import { consumeRateLimit, rateLimitKey, retryMessage } from "#server/platform/abuse/rate-limit";
import { domainError, type DomainError } from "#server/platform/errors";
import { OPPORTUNITY_POSTS_TOTAL } from "#server/domains/opportunities/totals";
import { supporterHref } from "#isomorphic/supporters";
import { supporterInNotice } from "#server/domains/payments/notices/payment-notices";
import type { PaymentProvider } from "#server/providers/payments/port";

/**
 * Deleting one's own account (SPEC §7.4 accounts:delete; docs/decisions/0031-account-deletion.md).
 *
 * 1. The person proves it is them: their current password, or — for an account that signs in
 *    only with Google — their email address typed out.
 * 2. Their memberships end now at the provider, those their fans pay them and those they pay
 *    others, so nobody is charged again for a page or a person that is gone (ADR 0084). Their
 *    payout account and billing customer (which ends any Pro subscription) are closed at the
 *    provider. If the provider refuses or cannot be reached, nothing is deleted.
 * 3. In one transaction: what is theirs goes (profile, bio pages, opportunity posts, hearts with
 *    the totals they counted in, notifications, preferences, sessions, sign-in methods, saved
 *    lists, mail and logs about them); the payment records the ledger and the provider need
 *    (sponsor sessions, ledger entries, refund requests, payment events) stay, detached from the
 *    person and without their name, email or messages.
 */

export type DeletionProof = { password: string } | { email: string };

export type DeletionDeps = { db: Db; auth: Auth; payments: PaymentProvider };

export type DeleteAccountResult =
  | { kind: "SUCCESS" }
  | DomainError<"invalid-argument" | "unauthenticated" | "not-found" | "unavailable" | "resource-exhausted", { field?: "password" | "email" }>;

/**
 * Tries at the confirmation per account: a borrowed session must not turn the form into a way to
 * guess the password. A few in a quarter of an hour is plenty for a typo.
 */
export const DELETION_ATTEMPTS = { limit: 5, windowSeconds: 15 * 60 };

/** What the confirmation asks for: a password when the account has one, else the typed email. */
export async function deletionProofKind(db: Db, uid: string): Promise<"password" | "email"> {
  const [credential] = await db
    .select({ id: account.id })
    .from(account)
    .where(and(eq(account.userId, uid), eq(account.providerId, "credential"), isNotNull(account.password)))
    .limit(1);
  return credential ? "password" : "email";
}

async function proofHolds(deps: DeletionDeps, person: { id: string; email: string }, proof: DeletionProof): Promise<DeleteAccountResult | null> {
  const kind = await deletionProofKind(deps.db, person.id);
  if (kind === "password") {
    if (!("password" in proof) || !proof.password) {
      return domainError("invalid-argument", "Enter your current password to delete your account.", { field: "password" as const });
    }
    const attempt = await consumeRateLimit(deps.db, rateLimitKey("deleteAccount", person.id), DELETION_ATTEMPTS);
    if (!attempt.allowed) return domainError("resource-exhausted", retryMessage(attempt.retryAfterSeconds), { field: "password" as const });
    const [credential] = await deps.db
      .select({ hash: account.password })
      .from(account)
      .where(and(eq(account.userId, person.id), eq(account.providerId, "credential")))
      .limit(1);
    const context = await deps.auth.$context;
    const matches = credential?.hash ? await context.password.verify({ hash: credential.hash, password: proof.password }) : false;
    return matches ? null : domainError("unauthenticated", "Password is incorrect. Please try again.", { field: "password" as const });
  }
  const typed = "email" in proof ? proof.email.trim().toLowerCase() : "";
  if (typed !== person.email.toLowerCase()) {
    return domainError("invalid-argument", "Type the email address of this account exactly to delete it.", { field: "email" as const });
  }
  return null;
}

/** Closes what the provider holds for the person; a failure leaves everything here as it was. */
async function closeAtProvider(deps: DeletionDeps, uid: string): Promise<DeleteAccountResult | null> {
  const [payout] = await deps.db
    .select({ accountId: connectedAccounts.providerAccountId })
    .from(connectedAccounts)
    .where(eq(connectedAccounts.uid, uid));
  const customers = new Set<string>();
  for (const row of await deps.db.select({ id: billingCustomers.customerId }).from(billingCustomers).where(eq(billingCustomers.uid, uid))) customers.add(row.id);
  for (const row of await deps.db.select({ id: proMemberships.providerCustomerId }).from(proMemberships).where(eq(proMemberships.uid, uid))) {
    if (row.id) customers.add(row.id);
  }
  const provider = deps.payments.displayName;
  const running = await deps.db
    .select({ id: memberships.id, subscriptionId: memberships.providerSubscriptionId })
    .from(memberships)
    .where(and(or(eq(memberships.creatorUid, uid), eq(memberships.memberUid, uid)), inArray(memberships.status, ["active", "past_due", "cancelled"])));
  try {
    for (const { id, subscriptionId } of running) {
      if (subscriptionId) await deps.payments.endMembershipNow({ idempotencyKey: `membership_end_${id}`, subscriptionId });
    }
  } catch {
    return domainError("unavailable", `We couldn't end the memberships at ${provider}, so nothing was deleted. Please try again later, or contact support.`);
  }
  try {
    // The subscription first: a person whose payout account cannot be closed must not keep paying for Pro either way.
    for (const customerId of customers) await deps.payments.deleteCustomer({ customerId });
  } catch {
    return domainError(
      "unavailable",
      `We couldn't end your Pro subscription at ${provider}, so nothing was deleted. Please try again later, or contact support.`,
    );
  }
  try {
    if (payout?.accountId) await deps.payments.deleteConnectedAccount({ accountId: payout.accountId });
  } catch {
    return domainError(
      "unavailable",
      `We couldn't close your payout account at ${provider} (it may still hold a balance), so nothing was deleted. ` +
        "Please try again once your payouts have settled, or contact support.",
    );
  }
  return null;
}

export async function deleteAccount(deps: DeletionDeps, uid: string, proof: DeletionProof): Promise<DeleteAccountResult> {
  const [person] = await deps.db.select({ id: user.id, email: user.email, name: user.name }).from(user).where(eq(user.id, uid));
  if (!person) return domainError("not-found", "This account no longer exists.");
  const refused = (await proofHolds(deps, person, proof)) ?? (await closeAtProvider(deps, uid));
  if (refused) return refused;
  await eraseAccount(deps.db, person);
  return { kind: "SUCCESS" };
}

/** Everything but the provider calls, in one transaction: either all of it happens or none. */
export async function eraseAccount(db: Db, person: { id: string; email: string; name: string }): Promise<void> {
  const uid = person.id;
  await db.transaction(async (tx) => {
    // Hearts they gave to other people's posts: each post's count loses theirs.
    const hearted = tx.select({ id: hearts.postId }).from(hearts).where(eq(hearts.uid, uid));
    await tx
      .update(opportunityPosts)
      .set({ totalHearts: sql`greatest(${opportunityPosts.totalHearts} - 1, 0)` })
      .where(and(inArray(opportunityPosts.id, hearted), ne(opportunityPosts.posterUid, uid)));
    await tx.delete(hearts).where(eq(hearts.uid, uid));
    // Their posts (others' hearts on them go with them, by cascade), and the total they counted in.
    const posts = await tx.delete(opportunityPosts).where(eq(opportunityPosts.posterUid, uid)).returning({ id: opportunityPosts.id });
    if (posts.length > 0) {
      await tx
        .update(totals)
        .set({ total: sql`greatest(${totals.total} - ${posts.length}, 0)` })
        .where(eq(totals.name, OPPORTUNITY_POSTS_TOTAL));
    }
    await tx.delete(bioPages).where(eq(bioPages.uid, uid));
    // Memberships they paid for stay for the ledger (their pages' own went with the pages), ended
    // above, without their address or name.
    await tx.update(memberships).set({ memberEmail: null, memberName: null, updatedAt: new Date() }).where(eq(memberships.memberUid, uid));

    // Payments they received or made stay for the ledger and the provider, without the person:
    // the uid is detached (the foreign keys set it null when the user row goes) and the free text
    // and addresses written to or by them are blanked.
    await tx.update(sponsorSessions).set({ sponsorEmail: null, message: "", updatedAt: new Date() }).where(eq(sponsorSessions.posterUid, uid));
    // The name they gave when they paid goes too, and with it from the payee's notification of that
    // payment ("Ann tipped you $5" becomes "Someone tipped you $5"), found by the payment it points at.
    const paidUnderAName = await tx
      .select({ id: sponsorSessions.id, name: sponsorSessions.supporterName })
      .from(sponsorSessions)
      .where(and(eq(sponsorSessions.sponsorUid, uid), isNotNull(sponsorSessions.supporterName)));
    for (const { id, name } of paidUnderAName) {
      if (!name?.trim()) continue;
      await tx
        .update(notifications)
        .set({ title: sql`replace(${notifications.title}, ${supporterInNotice({ supporterName: name, private: false })}, 'Someone')` })
        .where(eq(notifications.buttonDestination, supporterHref(id)));
    }
    await tx
      .update(sponsorSessions)
      .set({ sponsorEmail: null, message: "", supporterName: null, updatedAt: new Date() })
      .where(eq(sponsorSessions.sponsorUid, uid));
    // The provider's events about them keep their type and id (so a redelivery is still known), not their contents.
    const mentions = or(
      sql`${paymentEvents.payload}::text like ${`%${likeEscaped(uid)}%`}`,
      sql`lower(${paymentEvents.payload}::text) like ${`%${likeEscaped(person.email.toLowerCase())}%`}`,
    );
    await tx.update(paymentEvents).set({ payload: { redacted: "account deleted" } }).where(mentions);
    // Other people's notifications name a sponsor by the address they paid with ("… from ann@example.com").
    await tx
      .update(notifications)
      .set({ message: sql`regexp_replace(${notifications.message}, ${regexEscaped(person.email)}, 'a sponsor', 'gi')` })
      .where(sql`lower(${notifications.message}) like ${`%${likeEscaped(person.email.toLowerCase())}%`}`);

    // Mail to them, logs about them, reset links of theirs.
    // Stored mail (the outbox keeps what it could not send yet, or everything without SMTP): theirs,
    // and other people's that name them (a sponsor's receipt names the page they paid).
    const named = (column: typeof emailOutbox.text | typeof emailOutbox.html | typeof emailOutbox.subject) =>
      or(
        sql`lower(${column}) like ${`%${likeEscaped(person.email.toLowerCase())}%`}`,
        person.name.trim().length >= 3 ? sql`lower(${column}) like ${`%${likeEscaped(person.name.toLowerCase())}%`}` : undefined,
      );
    await tx
      .delete(emailOutbox)
      .where(or(sql`lower(${emailOutbox.to}) = ${person.email.toLowerCase()}`, named(emailOutbox.subject), named(emailOutbox.text), named(emailOutbox.html)));
    await tx.delete(logs).where(or(eq(logs.uid, uid), sql`lower(${logs.docId}) = ${person.email.toLowerCase()}`));
    // Work queued for them (a password reset asked for and not yet run, or given up) names their address.
    await tx.delete(queuedTasks).where(sql`lower(${queuedTasks.payload}->>'email') = ${person.email.toLowerCase()}`);
    await tx.delete(verification).where(or(eq(verification.value, uid), like(verification.identifier, `%${likeEscaped(person.email)}%`)));

    // The user row last: sessions, sign-in methods, profile, notifications, preferences, payout
    // account, Pro membership and checkouts go with it (on delete cascade); the payment records'
    // uids become null (on delete set null).
    await tx.delete(user).where(eq(user.id, uid));
  });
}

function regexEscaped(value: string): string {
  return value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function likeEscaped(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}
