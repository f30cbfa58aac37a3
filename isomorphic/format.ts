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

// Intl formatters cost ICU look-ups to build and never change once built: kept by their options.
// Pure, so sharing them across requests shows no one anything; each map is bounded, so no input
// (a locale, a zone, a currency from a request or a row) can grow it for ever.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const zonedFormats = new Map<string, Intl.DateTimeFormat>();
const moneyFormats = new Map<string, Intl.NumberFormat>();
const MAX_KEPT_FORMATS = 1000;

function kept<V>(cache: Map<string, V>, key: string, make: () => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make();
    if (cache.size >= MAX_KEPT_FORMATS) cache.clear();
    cache.set(key, value);
  }
  return value;
}

/** `locale` undefined means the runtime's default (the browser's own). */
export function dateTimeFormat(locale: string | undefined, style: DateStyle): Intl.DateTimeFormat {
  return kept(dateFormats, `${style}|${locale ?? ""}`, () => new Intl.DateTimeFormat(locale, DATE_STYLES[style]));
}

/**
 * A date and time on the clock of `timeZone`, with the zone's short name:
 * "Jul 15, 2030, 6:30 PM EDT". The same text on the server and in any
 * browser, so a deadline reads as the poster typed it. An unknown zone
 * (a browser older than the server's zone data) falls back to UTC.
 */
export function formatZonedDateTime(instant: Date, timeZone: string, locale: string | undefined): string {
  const format = kept(zonedFormats, `${timeZone}|${locale ?? ""}`, () => {
    const options: Intl.DateTimeFormatOptions = { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" };
    try {
      return new Intl.DateTimeFormat(locale, { ...options, timeZone });
    } catch {
      return new Intl.DateTimeFormat(locale, { ...options, timeZone: "UTC" });
    }
  });
  return format.format(instant);
}

function moneyFormat(locale: string, currency: string, fractionDigits: 0 | 2): Intl.NumberFormat {
  return kept(moneyFormats, `${locale}|${currency}|${fractionDigits}`, () =>
    new Intl.NumberFormat(locale, { style: "currency", currency: currency.toUpperCase(), maximumFractionDigits: fractionDigits }),
  );
}

/** Formats an ISO date (YYYY-MM-DD) for humans, independent of server time zone. */
export function formatIsoDate(isoDate: string, locale = "en-US"): string {
  return dateTimeFormat(locale, "longDateUtc").format(new Date(`${isoDate}T00:00:00Z`));
}

/** Whole-currency display of minor units, e.g. 150000 → "$1,500". */
export function formatMoney(minorUnits: number, currency = "usd", locale = "en-US"): string {
  return moneyFormat(locale, currency, minorUnits % 100 === 0 ? 0 : 2).format(minorUnits / 100);
}

// Raw tag → the locale it resolves to (null: none Intl supports). Bounded, as the tags come from requests.
const resolvedLocales = new Map<string, string | null>();

/**
 * The reader's first Accept-Language locale that Intl supports, else en-US.
 * It is returned as the locale Intl resolves it to, without extensions
 * ("en-x-anything" → "en", "fr-CA-u-nu-arab" → "fr-CA"), so the formatters
 * cached per locale above stay bounded by the locales ICU ships, whatever
 * tags requests invent.
 */
export function localeFrom(acceptLanguage: string | null): string {
  for (const part of (acceptLanguage ?? "").split(",").slice(0, 10)) {
    const tag = part.split(";")[0]?.trim();
    if (!tag || tag === "*" || tag.length > 35) continue;
    let resolved = resolvedLocales.get(tag);
    if (resolved === undefined) {
      try {
        resolved = Intl.DateTimeFormat.supportedLocalesOf([tag]).length > 0
          ? new Intl.Locale(new Intl.DateTimeFormat(tag).resolvedOptions().locale).baseName
          : null;
      } catch {
        resolved = null; // not a valid language tag
      }
      if (resolvedLocales.size < 1000) resolvedLocales.set(tag, resolved);
    }
    if (resolved) return resolved;
  }
  return "en-US";
}
