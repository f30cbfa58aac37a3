/** Formats an ISO date (YYYY-MM-DD) for humans, independent of server time zone. */
export function formatIsoDate(isoDate: string, locale = "en-US"): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: "long", timeZone: "UTC" }).format(new Date(`${isoDate}T00:00:00Z`));
}

/** Whole-currency display of minor units, e.g. 150000 → "$1,500". */
export function formatMoney(minorUnits: number, currency = "usd", locale = "en-US"): string {
  return new Intl.NumberFormat(locale, {
    style: "currency",
    currency: currency.toUpperCase(),
    maximumFractionDigits: minorUnits % 100 === 0 ? 0 : 2,
  }).format(minorUnits / 100);
}

/** The reader's first Accept-Language locale that Intl supports, else en-US. */
export function localeFrom(acceptLanguage: string | null): string {
  for (const part of (acceptLanguage ?? "").split(",")) {
    const tag = part.split(";")[0]?.trim();
    if (!tag || tag === "*") continue;
    try {
      if (Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0) return tag;
    } catch {
      // not a valid language tag: try the next one
    }
  }
  return "en-US";
}
