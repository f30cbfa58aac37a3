import type { Db } from "#server/platform/db/client";
import type { WebhookEventInput } from "#server/platform/outgoing-webhooks/queue";
import type { NotificationInput } from "#server/domains/notifications/send";
import type { MoneyEventOf } from "#server/domains/payments/ledger/money-events";
import { PRO_PLANS } from "#isomorphic/pro-plans";

/** What a Pro change tells its person: rows of the money facts' fan-out (server/domains/payments/notices/fan-out.ts). */
export async function proStarted(_tx: Db, { uid, plan }: MoneyEventOf<"pro.started">): Promise<NotificationInput> {
  return {
    uid,
    kind: "pro-started",
    title: "Welcome to Pro",
    message:
      plan === "limitless"
        ? "Your Limitless plan is active: Pro for good, it never expires. Any subscription you had ends at its period's end and does not renew."
        : `Your ${PRO_PLANS[plan].name} plan is active: the whole sponsor directory is open to you.`,
    buttonText: "Your plan",
    buttonDestination: "/app/pro",
  };
}

export async function proRenewalFailed(_tx: Db, { uid, plan }: MoneyEventOf<"pro.renewal_failed">): Promise<NotificationInput> {
  const name = PRO_PLANS[plan].name;
  return { uid, kind: "pro-renewal-failed", title: "Pro renewal failed", message: `We could not renew your ${name} plan. Update your card in the Pro Portal to stay Pro.`, buttonText: "Open My Account", buttonDestination: "/app/account" };
}

export async function proEnded(_tx: Db, { uid, plan }: MoneyEventOf<"pro.ended">): Promise<NotificationInput> {
  const name = PRO_PLANS[plan].name;
  return { uid, kind: "pro-ended", title: "Pro ended", message: `Your ${name} plan has ended. You can become a Pro again at any time.`, buttonText: "See the plans", buttonDestination: "/app/pro" };
}

/** pro.started / pro.ended for the member, with the membership as it began or ended (`pro:<uid>` keeps them in order). */
export function proWebhook(type: "pro.started" | "pro.ended") {
  return async (_tx: Db, event: MoneyEventOf<"pro.started" | "pro.ended">): Promise<WebhookEventInput> => ({ uid: event.uid, type, orderingKey: `pro:${event.uid}`, data: event.membership });
}
