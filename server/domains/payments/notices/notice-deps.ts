import type { Logger } from "pino";
import type { Mailer } from "#server/platform/email/mailer";
import type { EmailSite } from "#server/platform/email/messages";
import type { PaymentEvent } from "#server/providers/payments/events";
import type { PaymentProvider } from "#server/providers/payments/port";
import type { NotificationDeps } from "#server/domains/notifications/send";

/** What handling a provider's event needs besides the database: the payments domain's receipts use it too. */
export type WebhookDeps = {
  provider: PaymentProvider;
  /** Receipts and notification mail go into the outbox with the handler's transaction. */
  mailer: Mailer;
  site: EmailSite & { publicOrigin: string; bioOrigin: string };
  /** Signs the unsubscribe links of notification mails: with `mailer` and `site`, these are sendNotification's deps. */
  unsubscribeKey: string;
  /** The platform's fee, which a deal's webhook event carries the split of (NotificationDeps), and a membership's paid period is charged. */
  platformFeePercent: number;
  /** Signs the member links every membership mail carries: memberLinkKey(sessionSecret) (server/domains/memberships/member-link.ts). */
  memberLinkKey: string;
  logger?: Logger;
  /** Told each event's stage as the intake records it (server/features/payment-webhooks/metrics.ts counts them). */
  onEvent?(event: PaymentEvent, stage: "received" | "processed" | "duplicate" | "ignored" | "failed"): void;
};

/**
 * What telling people of a money fact needs (server/domains/payments/notices/fan-out.ts):
 * sendNotification's deps, and a logger for what is left out (a receipt over its limit).
 * WebhookDeps has it all.
 */
export type FanOutDeps = NotificationDeps & { logger?: Logger };
