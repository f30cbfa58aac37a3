import type { AppContext } from "#server/main/context";
import type { Placeholders } from "#server/domains/content/markdown";
import { proPriceText } from "#isomorphic/pro-plans";

export function placeholdersFrom(config: AppContext["config"]): Placeholders {
  return {
    APP_NAME: config.APP_NAME,
    SUPPORT_EMAIL: config.SUPPORT_EMAIL,
    COMPANY_NAME: config.COMPANY_NAME,
    PRO_LAUNCHPAD_PRICE: proPriceText("launchpad"),
    PRO_STAR_POWER_PRICE: proPriceText("star_power"),
    PRO_LIMITLESS_PRICE: proPriceText("limitless"),
  };
}
