import type { AppContext } from "#server/http/context";
import type { Placeholders } from "#server/content/markdown";

export function placeholdersFrom(config: AppContext["config"]): Placeholders {
  return { APP_NAME: config.APP_NAME, SUPPORT_EMAIL: config.SUPPORT_EMAIL, COMPANY_NAME: config.COMPANY_NAME };
}
