import { eq, like } from "drizzle-orm";
import { z } from "zod";
import { consumeRateLimit, rateLimitKey } from "#server/platform/abuse/rate-limit";
import { CHECKOUT_RATE_LIMITS } from "#server/platform/abuse/rules";
import type { Db } from "#server/platform/db/client";
import { bioPages, memberships, membershipTiers, moneyEvents, MEMBERSHIP_STATUSES, type MembershipStatus } from "#server/platform/db/schema";
import type { MailMessage } from "#server/platform/email/mailer";
import { membershipEndedEmail, membershipPaymentFailedEmail, membershipReceiptEmail, membershipWelcomeEmail } from "#server/platform/email/membership-messages";
import type { WebhookEventInput } from "#server/platform/outgoing-webhooks/queue";
import type { NotificationInput } from "#server/domains/notifications/send";
import { formatMoney } from "#server/domains/payments/ledger/money";
import type { MoneyEvent } from "#server/domains/payments/ledger/money-events";
import type { FanOutDeps, WebhookDeps } from "#server/domains/payments/notices/notice-deps";
import { supporterInNotice } from "#server/domains/payments/notices/payment-notices";
import { memberPath, signMemberToken } from "#server/domains/memberships/member-link";
import { MEMBERSHIP_PER } from "#isomorphic/membership-limits";

/**
 * Who hears of a membership's facts (rows of the money facts' fan-out, ADR 0064): the member by
 * mail, to the address they gave the checkout (no account needed), each mail with their signed
 * member link; the creator by a notification that says the amount and the tier; the creator's
 * webhook endpoints by `membership.*` events.
 */

/** Where a creator sees their members. */
export const MEMBERS_PATH = "/app/members";

type MembershipFacts = {
  membership: typeof memberships.$inferSelect;
  tierName: string;
  welcomeMessage: string;
  pageName: string;
  pageEnding: string | null;
};

/** The membership a fact is about, with its tier's and page's names (its row is locked by the writer's transaction). */
export async function readMembershipFacts(tx: Db, membershipId: string): Promise<MembershipFacts | null> {
  const [row] = await tx
    .select({ membership: memberships, tierName: membershipTiers.name, welcomeMessage: membershipTiers.welcomeMessage, pageName: bioPages.name, pageEnding: bioPages.customEnding })
    .from(memberships)
    .innerJoin(membershipTiers, eq(membershipTiers.id, memberships.tierId))
    .leftJoin(bioPages, eq(bioPages.id, memberships.bioPageId))
    .where(eq(memberships.id, membershipId));
  if (!row) return null;
  return { ...row, pageName: row.pageName ?? "the creator" };
}

/** "$5.00/month": what a period costs, as every word about a membership says it. */
export const pricePerPeriod = (m: { amount: number; currency: string; interval: "month" | "year" }) => `${formatMoney(m.amount, m.currency)}${MEMBERSHIP_PER[m.interval]}`;

/** The member's page, absolute, signed with the membership's current link version. */
export function memberUrl(deps: Pick<WebhookDeps, "memberLinkKey" | "site">, membership: { id: string; linkVersion: number }): string {
  return `${deps.site.publicOrigin}${memberPath(signMemberToken(deps.memberLinkKey, membership.id, membership.linkVersion))}`;
}

type MemberMailFact = Extract<MoneyEvent, { type: "membership.created" | "membership.renewed" | "membership.payment_failed" | "membership.ended" }>;

/**
 * The member's mail of a fact, rendered by the writer before it records the fact (the fan-out's
 * deps carry no member link key); none without an address.
 */
export async function composeMemberMail(tx: Db, fact: MemberMailFact, deps: WebhookDeps, at: Date): Promise<MailMessage | null> {
  const facts = await readMembershipFacts(tx, fact.membershipId);
  const to = facts?.membership.memberEmail;
  if (!facts || !to) return null;
  const { membership } = facts;
  const base = { to, site: deps.site, pageName: facts.pageName, tierName: facts.tierName, memberUrl: memberUrl(deps, membership), reference: membership.id };
  const running = membership.status === "active" || membership.status === "past_due" || membership.status === "cancelled";
  switch (fact.type) {
    case "membership.created":
      return membershipWelcomeEmail({
        ...base,
        amount: formatMoney(fact.amount, fact.currency),
        interval: membership.interval,
        paidAt: at,
        nextPaymentAt: running && !membership.cancelAtPeriodEnd ? membership.currentPeriodEnd : null,
        welcomeMessage: facts.welcomeMessage,
      });
    case "membership.renewed":
      return membershipReceiptEmail({
        ...base,
        amount: formatMoney(fact.amount, fact.currency),
        paidAt: at,
        nextPayment: running && !membership.cancelAtPeriodEnd && membership.currentPeriodEnd ? { amount: formatMoney(membership.amount, membership.currency), at: membership.currentPeriodEnd } : null,
        endsAt: running && membership.cancelAtPeriodEnd ? membership.currentPeriodEnd : null,
      });
    case "membership.payment_failed":
      return membershipPaymentFailedEmail({ ...base, amount: formatMoney(fact.amount, fact.currency) });
    case "membership.ended":
      return membershipEndedEmail({ ...base, reason: fact.reason, endedAt: membership.endedAt, creatorMessage: membership.cancelMessage });
  }
}

/**
 * The member's mails the writer rendered, less those whose address had all the receipts it may get
 * this hour (the tips' receipt limit, CHECKOUT_RATE_LIMITS.receiptsPerRecipient): the fact is still
 * recorded and the creator told, so nobody can aim a stream of mail at a stranger's address.
 */
export async function allowedMemberMails(tx: Db, event: MoneyEvent, deps: FanOutDeps, prepared: readonly MailMessage[]): Promise<MailMessage[]> {
  const allowed: MailMessage[] = [];
  for (const mail of prepared) {
    const result = await consumeRateLimit(tx, rateLimitKey("receipts:to", mail.to.trim().toLowerCase()), CHECKOUT_RATE_LIMITS.receiptsPerRecipient);
    if (!result.allowed) {
      deps.logger?.warn({ type: event.type, kind: mail.meta?.kind }, "membership mail not sent: its address had all the receipts it may get this hour");
      continue;
    }
    allowed.push(mail);
  }
  return allowed;
}

/** The words of the creator's notifications, one function so tests and screens read the same. */
export function memberNoticeWords(
  fact: Pick<MoneyEvent, "type"> & { reason?: string; periodEnd?: string },
  facts: { who: string; tierName: string; pageName: string; price: string; amount: string },
): { title: string; message: string } | null {
  const { who, tierName, pageName, price, amount } = facts;
  switch (fact.type) {
    case "membership.created":
      return { title: `${who} joined ${tierName} at ${price}`, message: `A new ${tierName} member of ${pageName}: their first payment of ${amount} is in, and they are charged ${price} until they cancel.` };
    case "membership.renewed":
      return { title: `${who} renewed ${tierName}: ${amount}`, message: `${who}'s ${tierName} membership of ${pageName} renewed; the ${amount} payment is on Supporters and in your earnings.` };
    case "membership.cancelled": {
      const until = fact.periodEnd ? new Date(fact.periodEnd).toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" }) : null;
      return {
        title: `${who} cancelled ${tierName} (${price})`,
        message: `${who} stays a ${tierName} member of ${pageName}${until ? ` until ${until}` : " until their paid period ends"}; the ${price} is not charged again after that.`,
      };
    }
    case "membership.ended":
      return fact.reason === "payment_failed"
        ? { title: `${who}'s ${tierName} membership ended`, message: `The ${price} renewal for ${pageName} could not be charged after several tries, so the membership ended. Nothing more is charged.` }
        : fact.reason === "cancelled"
          ? { title: `${who}'s ${tierName} membership ended`, message: `The ${tierName} membership (${price}) of ${pageName} ran out after it was cancelled. Nothing more is charged.` }
          : { title: `${who}'s ${tierName} membership ended`, message: `The ${tierName} membership (${price}) of ${pageName} ended at once. Nothing more is charged.` };
    default:
      return null;
  }
}

/** Whether the creator heard of this membership's cancel (its fact was recorded): its running out is then no news. */
async function cancelWasTold(tx: Db, membershipId: string): Promise<boolean> {
  const [row] = await tx.select({ id: moneyEvents.id }).from(moneyEvents).where(like(moneyEvents.key, `membership:${membershipId.replace(/[\\%_]/g, (c) => `\\${c}`)}:cancelled:%`)).limit(1);
  return row !== undefined;
}

const NOTIFICATION_KIND = {
  "membership.created": "member-joined",
  "membership.renewed": "member-renewed",
  "membership.cancelled": "member-cancelled",
  "membership.ended": "member-ended",
} as const;

/**
 * The creator's notification of a fact (mailed by their preference), none when they deleted their
 * account. A cancel that ran out is not told again when its cancel was.
 */
export async function memberNotice(
  tx: Db,
  event: Extract<MoneyEvent, { type: "membership.created" | "membership.renewed" | "membership.cancelled" | "membership.ended" }>,
): Promise<NotificationInput | null> {
  if (event.type === "membership.ended" && event.reason === "cancelled" && (await cancelWasTold(tx, event.membershipId))) return null;
  const facts = await readMembershipFacts(tx, event.membershipId);
  const creatorUid = facts?.membership.creatorUid;
  if (!facts || !creatorUid) return null;
  const { membership } = facts;
  const amount = "amount" in event ? formatMoney(event.amount, event.currency) : formatMoney(membership.amount, membership.currency);
  const words = memberNoticeWords(event, {
    who: supporterInNotice({ supporterName: membership.memberName, private: membership.private }),
    tierName: facts.tierName,
    pageName: facts.pageName,
    price: pricePerPeriod(membership),
    amount,
  });
  if (!words) return null;
  return { uid: creatorUid, kind: NOTIFICATION_KIND[event.type], ...words, buttonText: "See your members", buttonDestination: MEMBERS_PATH };
}

/** A membership as the creator's webhook endpoints receive it. */
export const membershipEventSchema = z
  .object({
    membership: z.object({
      id: z.string().meta({ description: "The membership's id." }),
      bioPageId: z.string().meta({ description: "The bio page whose tier it is." }),
      tierId: z.string(),
      tierName: z.string().meta({ example: "Gold" }),
      status: z.enum(MEMBERSHIP_STATUSES).meta({
        description: "active: paid and renewing. past_due: a renewal failed and is retried; still a member. cancelled: a member until currentPeriodEnd, then ended. ended: over. pending/expired: a checkout not (or never) paid.",
      }),
      interval: z.enum(["month", "year"]),
      amount: z.int().meta({ description: "What each period costs, in minor units of currency." }),
      currency: z.string(),
      currentPeriodEnd: z.iso.datetime().nullable().meta({ description: "When the paid period ends: it renews then, or ends if cancelAtPeriodEnd." }),
      cancelAtPeriodEnd: z.boolean(),
      startedAt: z.iso.datetime().nullable(),
      endedAt: z.iso.datetime().nullable(),
      memberName: z.string().nullable().meta({ description: "The name the member gave; null when they gave none." }),
      memberEmail: z.string().nullable().meta({ description: "Where their receipts go." }),
      private: z.boolean().meta({ description: "They asked to be kept off your public page." }),
    }),
    paymentId: z.string().nullable().meta({ description: "`membership.created` and `membership.renewed`: the paid period's payment (`GET /payments/{paymentId}`); null for other events." }),
  })
  .meta({ id: "MembershipEvent", description: "A change of one of your memberships, with the membership as it stands after it." });

export type MembershipEventData = z.infer<typeof membershipEventSchema>;

const iso = (at: Date | null) => at?.toISOString() ?? null;

/** membership.* for the creator's endpoints (`membership:<id>` keeps one membership's events in order); none without a creator. */
export function membershipWebhook(type: "membership.created" | "membership.renewed" | "membership.payment_failed" | "membership.cancelled" | "membership.ended") {
  return async (tx: Db, event: { membershipId: string; sessionId?: string }): Promise<WebhookEventInput | null> => {
    const facts = await readMembershipFacts(tx, event.membershipId);
    if (!facts?.membership.creatorUid) return null;
    const m = facts.membership;
    const data: MembershipEventData = {
      membership: {
        id: m.id,
        bioPageId: m.bioPageId,
        tierId: m.tierId,
        tierName: facts.tierName,
        status: m.status as MembershipStatus,
        interval: m.interval,
        amount: m.amount,
        currency: m.currency,
        currentPeriodEnd: iso(m.currentPeriodEnd),
        cancelAtPeriodEnd: m.cancelAtPeriodEnd,
        startedAt: iso(m.startedAt),
        endedAt: iso(m.endedAt),
        memberName: m.memberName,
        memberEmail: m.memberEmail,
        private: m.private,
      },
      paymentId: event.sessionId ?? null,
    };
    return { uid: m.creatorUid!, type, orderingKey: `membership:${m.id}`, data };
  };
}
