// Intl formatters are costly to build (ICU data lookups) and cheap to reuse:
// a list page formats dozens of dates and amounts, so each (style, locale)
// formatter is built once per process. The styles are named so that finding
// a cached formatter costs a short string key, not a JSON.stringify per call.
const DATE_STYLES = {
  /** "June 3, 2026", whatever the server's time zone (ISO dates carry no zone). */
  longDateUtc: { dateStyle: "long", timeZone: "UTC" },
  /** "Jun 3, 2026, 5:00 PM" in UTC: the server knows no reader's zone. */
  mediumDateTimeUtc: { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" },
  /** The same in the browser's own zone. */
  mediumDateTimeLocal: { dateStyle: "medium", timeStyle: "short" },
} satisfies Record<string, Intl.DateTimeFormatOptions>;
export type DateStyle = keyof typeof DATE_STYLES;

const dateFormats = new Map<string, Intl.DateTimeFormat>();
const zonedFormats = new Map<string, Intl.DateTimeFormat>();
const moneyFormats = new Map<string, Intl.NumberFormat>();

/** `locale` undefined means the runtime's default (the browser's own). */
export function dateTimeFormat(locale: string | undefined, style: DateStyle): Intl.DateTimeFormat {
  const key = `${style}|${locale ?? ""}`;
  let format = dateFormats.get(key);
  if (!format) dateFormats.set(key, (format = new Intl.DateTimeFormat(locale, DATE_STYLES[style])));
  return format;
}

/**
 * A date and time on the clock of `timeZone`, with the zone's short name:
 * "Jul 15, 2030, 6:30 PM EDT". The same text on the server and in any
 * browser, so a deadline reads as the poster typed it. An unknown zone
 * (a browser older than the server's zone data) falls back to UTC.
 */
export function formatZonedDateTime(instant: Date, timeZone: string, locale: string | undefined): string {
  const key = `${timeZone}|${locale ?? ""}`;
  let format = zonedFormats.get(key);
  if (!format) {
    const options: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" };
    try {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      format = new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    }
    if (zonedFormats.size >= 1000) zonedFormats.clear(); // zones × locales is bounded, but not by us
    zonedFormats.set(key, format);
  }
  return format.format(instant);
}

function moneyFormat(locale: string, currency: string, fractionDigits: 0 | 2): Intl.NumberFormat {
  const key = `${locale}|${currency}|${fractionDigits}`;
  let format = moneyFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase(), maximumFractionDigits: fractionDigits });
    moneyFormats.set(key, format);
  }
  return format;
}

/** Formats an ISO date (YYYY-MM-DD) for humans, independent of server time zone. */
export function formatIsoDate(isoDate: string, locale = "en-US"): string {
  return dateTimeFormat(locale, "longDateUtc").format(new Date(`${isoDate}T00:00:00Z`));
}

/** Whole-currency display of minor units, e.g. 150000 → "$1,500". */
export function formatMoney(minorUnits: number, currency = "usd", locale = "en-US"): string {
  return moneyFormat(locale, currency, minorUnits % 100 === 0 ? 0 : 2).format(minorUnits / 100);
}

const supportedLocales = new Map<string, boolean>();

/** The reader's first Accept-Language locale that Intl supports, else en-US. */
export function localeFrom(acceptLanguage: string | null): string {
  for (const part of (acceptLanguage ?? "").split(",").slice(0, 10)) {
    const tag = part.split(";")[0]?.trim();
    if (!tag || tag === "*" || tag.length > 35) continue;
    let supported = supportedLocales.get(tag);
    if (supported === undefined) {
      try {
        supported = Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0;
      } catch {
        supported = false; // not a valid language tag
      }
      if (supportedLocales.size < 1000) supportedLocales.set(tag, supported);
    }
    if (supported) return tag;
  }
  return "en-US";
}
