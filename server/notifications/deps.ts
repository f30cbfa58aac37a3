import type { AppContext } from "#server/http/context";
import type { NotificationDeps } from "./send";
import { unsubscribeSigningKey } from "./unsubscribe-token";

/** sendNotification's mail dependencies from what every loader, action and worker has. */
export function notificationDepsOf(context: Pick<AppContext, "mailer" | "config" | "sessionSecret">): NotificationDeps {
  const { config } = context;
  return {
    mailer: context.mailer,
    site: { appName: config.APP_NAME, supportEmail: config.SUPPORT_EMAIL, publicOrigin: config.PUBLIC_ORIGIN },
    unsubscribeKey: unsubscribeSigningKey(context.sessionSecret),
  };
}
