import type { Config } from "#server/platform/config";
import type { Mailer } from "#server/platform/email/mailer";
import type { NotificationDeps } from "./send";
import { unsubscribeSigningKey } from "./unsubscribe-token";

/** What every loader, action and worker has (the load context among them) that sendNotification's mail needs. */
type MailSources = { mailer: Mailer; config: Pick<Config, "APP_NAME" | "SUPPORT_EMAIL" | "PUBLIC_ORIGIN" | "PLATFORM_FEE_PERCENT">; sessionSecret: string };

/** sendNotification's mail dependencies from what every loader, action and worker has. */
export function notificationDepsOf(context: MailSources): NotificationDeps {
  const { config } = context;
  return {
    mailer: context.mailer,
    site: { appName: config.APP_NAME, supportEmail: config.SUPPORT_EMAIL, publicOrigin: config.PUBLIC_ORIGIN },
    unsubscribeKey: unsubscribeSigningKey(context.sessionSecret),
    platformFeePercent: config.PLATFORM_FEE_PERCENT,
  };
}
